import type { PopupMessage } from '../../lib/reauth';

/**
 * The console window that opened this one as its single sign-on popup, or null. Only a window of
 * this same origin counts: another site's window cannot even have its location read.
 */
export function consoleOpener(): Window | null {
  const opener = window.opener as Window | null;
  if (!opener || opener === window) return null;
  try {
    return opener.location.origin === window.location.origin ? opener : null;
  } catch {
    return null;
  }
}

/** Posts to the opening console window, addressed to this origin only (never '*'). */
export function tellOpener(opener: Window, message: PopupMessage): void {
  opener.postMessage(message, window.location.origin);
}
