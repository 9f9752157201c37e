/** The longest role or group name the server takes. */
export const MAX_PATH_NAME_LENGTH = 64;

/** Why a typed role or group name would be refused by the server. */
export type PathNameProblem = 'required' | 'tooLong' | 'invalid';

/**
 * What is wrong with a role or group name (these names travel in URL paths), or null when it
 * can be sent: it must not be blank, too long, or contain slashes or control characters.
 */
export function pathNameProblem(name: string): PathNameProblem | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'required';
  if (trimmed.length > MAX_PATH_NAME_LENGTH) return 'tooLong';
  if (/[/\\\p{Cc}]/u.test(trimmed)) return 'invalid';
  return null;
}
