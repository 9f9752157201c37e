import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession } from './session';

/**
 * Whether the signed-in user must set up a second factor before anything else (a role of theirs
 * requires one, issue 20). The server refuses every other call with 403 two_factor 'enrol'; the API
 * client raises this flag on such an answer and the route guard then shows the enrolment page.
 */
let mustEnrol = false;
const listeners = new Set<() => void>();

function set(value: boolean): void {
  if (mustEnrol === value) return;
  mustEnrol = value;
  for (const listener of listeners) listener();
}

/** The server said a second factor must be set up first. */
export function requireEnrolment(): void {
  set(true);
}

/** A second factor was set up (or the user signed out): the console is open again. */
export function enrolmentDone(): void {
  set(false);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// A new session (a sign-in, a sign-out, a new token) starts without the flag; the server raises it
// again if it still applies. Fresh details of the same session (/api/me, answered to a user who must
// enrol too) leave it alone: clearing it then let the enrolment page lose its notice, and the other
// pages their redirect, whenever /api/me answered after the first refusal.
let sessionToken = getSession().token;
subscribeSession(() => {
  const { token } = getSession();
  if (token === sessionToken) return;
  sessionToken = token;
  set(false);
});

/** True while the signed-in user must enrol a second factor first. */
export function useMustEnrol(): boolean {
  return useSyncExternalStore(subscribe, () => mustEnrol);
}
