/**
 * Fetches the code of the screens sign-in links to (forgotten password, sign-up) once sign-in shows,
 * so a click opens them at once. Loaded only on the click, the sign-in form stayed on screen while
 * the chunk arrived, and what the visitor typed meanwhile went into the sign-in form (seen in the
 * browser tests, account.spec.ts). A failed fetch changes nothing: the screen's own lazy load tries
 * again on the click and says so when it cannot.
 */
export function preloadLinkedScreens(): void {
  import('./forget-password-page').catch(() => undefined);
  import('./sign-up-page').catch(() => undefined);
}
