import { routes } from '@gatehouse/contracts';
import { apiCall } from '../../../lib/api-client';

/** POST api/logout: revokes the token. Failures are ignored; the console signs out anyway. */
export async function logout(): Promise<void> {
  try {
    await apiCall(routes.logout, { signOutOn401: false });
  } catch {
    // The token may already be gone; signing out locally is what matters.
  }
}
