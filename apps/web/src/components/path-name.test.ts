import { describe, expect, it } from 'vitest';
import { MAX_PATH_NAME_LENGTH, pathNameProblem } from './path-name';

describe('pathNameProblem', () => {
  it('asks for a name when blank', () => {
    expect(pathNameProblem('   ')).toBe('required');
  });

  it('refuses slashes, control characters and over-long names, as the server does', () => {
    expect(pathNameProblem('ops/admin')).toBe('invalid');
    expect(pathNameProblem('a\\b')).toBe('invalid');
    expect(pathNameProblem('tab\there')).toBe('invalid');
    expect(pathNameProblem('x'.repeat(MAX_PATH_NAME_LENGTH + 1))).toBe('tooLong');
  });

  it('accepts an ordinary name with spaces around it', () => {
    expect(pathNameProblem('  release managers ')).toBeNull();
    expect(pathNameProblem('x'.repeat(MAX_PATH_NAME_LENGTH))).toBeNull();
  });
});
