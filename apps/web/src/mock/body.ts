import { MockError } from './http';

/** A JSON body as an object of fields (an empty one when the body is not an object). */
export function fieldsOf(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** A text field, trimmed; undefined when absent. */
export function text(body: unknown, key: string): string | undefined {
  const value = fieldsOf(body)[key];
  return typeof value === 'string' ? value.trim() : undefined;
}

/** A text field that must be there, or a 400 naming it (as the server's validation does). */
export function required(body: unknown, key: string, message = `${key} is required`): string {
  const value = text(body, key);
  if (!value) throw new MockError(400, message, { errors: [message] });
  return value;
}

/** A list of texts: a JSON list, or comma-joined text as the spec sends permissions. */
export function list(body: unknown, key: string): string[] {
  const value = fieldsOf(body)[key];
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return items
    .filter((item): item is string => typeof item === 'string')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** A yes/no field; undefined when absent. */
export function flag(body: unknown, key: string): boolean | undefined {
  const value = fieldsOf(body)[key];
  return typeof value === 'boolean' ? value : undefined;
}

/** A number field; undefined when absent. */
export function num(body: unknown, key: string): number | undefined {
  const value = fieldsOf(body)[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The item a path names, or the server's 404. */
export function found<T>(item: T | undefined, what: string): T {
  if (item === undefined) throw new MockError(404, `${what} was not found.`);
  return item;
}
