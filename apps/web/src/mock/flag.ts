import { apiCall } from '../lib/api-client';
import { API } from '../lib/api-routes';
import { getToken, signOut } from '../lib/session';
import { STORAGE_KEYS, readString, writeString } from '../lib/storage';
import { retireMockWorker } from './worker';

/** Whether this browser runs the console against the mock API: the local flag useMockData is 'true' (spec §9). */
export function isMockDataOn(): boolean {
  return readString(STORAGE_KEYS.useMockData) === 'true';
}

/**
 * Turns mock data on or off: signs out (a session belongs to the server, or the mock, that issued
 * it; the token is revoked there first), stores the flag and reloads the page, which then starts
 * with the mock API or without it (spec §2.5).
 */
export async function setMockData(on: boolean): Promise<void> {
  if (getToken()) await apiCall(API.logout, { signOutOn401: false, reauth: false }).catch(() => undefined);
  signOut();
  writeString(STORAGE_KEYS.useMockData, on ? 'true' : 'false');
  if (!on) await retireMockWorker().catch(() => undefined);
  window.location.reload();
}
