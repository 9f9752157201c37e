/** Rows of a raw `db.execute` result, whichever driver answered it (pg answers { rows }, PGlite too). */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}
