import { HttpError } from '../../http/errors.js';
import type { Principal } from '../auth/principal.js';

/**
 * Nobody grants what they do not hold: giving a role or adding permissions needs the caller to
 * hold each permission concerned (administrators hold all), so modify-role cannot escalate.
 */
export function assertMayGrant(principal: Principal, permissions: readonly string[]): void {
  const missing = permissions.filter((p) => !principal.permissions.has(p as never));
  if (missing.length > 0) {
    throw new HttpError(403, `You cannot grant permissions you do not hold yourself: ${missing.join(', ')}.`);
  }
}
