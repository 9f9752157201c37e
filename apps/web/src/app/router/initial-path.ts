import { isAuthOrErrorPath, routePermissions } from './route-rules';

let remembered: string | null = null;

/**
 * Remembers the path the page was opened on (from the hash), when it is a product path and not
 * an auth or error path; the permission is checked again when it is used (spec §2.4).
 */
export function captureInitialPath(hash: string = window.location.hash): void {
  const path = hash.replace(/^#/, '') || '/';
  remembered = !isAuthOrErrorPath(path) && routePermissions(path) !== undefined ? path : null;
}

/** The remembered initial path, or null. */
export function rememberedPath(): string | null {
  return remembered;
}
