/** The forgotten-password screen's code (the route's lazy load and the prefetch below share it). */
export const loadForgetPasswordPage = () => import('./forget-password-page');
/** The sign-up screen's code. */
export const loadSignUpPage = () => import('./sign-up-page');

/**
 * Fetches the code of the screens sign-in links to (forgotten password, sign-up) once sign-in shows,
 * so a click opens them at once. Loaded only on the click, the sign-in form stayed on screen while
 * the chunk arrived, and what the visitor typed meanwhile went into the sign-in form (seen in the
 * browser tests, account.spec.ts). A failed fetch changes nothing: the screen's own lazy load tries
 * again on the click and says so when it cannot.
 */
export function preloadLinkedScreens(): void {
  loadForgetPasswordPage().catch(() => undefined);
  loadSignUpPage().catch(() => undefined);
}
