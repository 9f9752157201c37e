import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/** POST api/logout: revokes the token. Failures are ignored; the console signs out anyway. */
export async function logout(): Promise<void> {
  try {
    await apiCall(API.logout, { signOutOn401: false });
  } catch {
    // The token may already be gone; signing out locally is what matters.
  }
}
