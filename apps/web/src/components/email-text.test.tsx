// @vitest-environment happy-dom
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailText, addressPieces } from './email-text';

describe('an email that wraps at its joints', () => {
  it('breaks before the at sign and the dots, after the hyphens', () => {
    expect(addressPieces('samantha.sweep-of-the-team@e2e.gatehouse.test')).toEqual([
      'samantha',
      '.sweep-',
      'of-',
      'the-',
      'team',
      '@e2e',
      '.gatehouse',
      '.test',
    ]);
    expect(addressPieces('root')).toEqual(['root']);
  });

  it('reads, copies and searches as the address unchanged', () => {
    const { container } = render(
      <span>
        <EmailText>{'a.b-c@d.example'}</EmailText>
      </span>,
    );
    expect(container.textContent).toBe('a.b-c@d.example');
    expect(container.querySelectorAll('wbr')).toHaveLength(4);
  });
});
