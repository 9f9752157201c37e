import { useSyncExternalStore } from 'react';
import type { SessionState } from './session';
import { getSession, subscribeSession } from './session';

/** The current session (token and stored user), re-rendering on sign-in and sign-out. */
export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
