import { describe, expect, it } from 'vitest';
import { copyrightYear } from './copyright';

describe('copyrightYear', () => {
  it('is never below 2024', () => {
    expect(copyrightYear(new Date('2019-06-01T00:00:00Z'))).toBe(2024);
    expect(copyrightYear(new Date('2024-03-01T00:00:00Z'))).toBe(2024);
  });

  it('follows the current year after 2024', () => {
    expect(copyrightYear(new Date('2031-07-15T12:00:00Z'))).toBe(2031);
  });
});
