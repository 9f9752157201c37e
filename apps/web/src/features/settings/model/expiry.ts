/** How soon an expiry is worth a notice (spec §4, §9): an error at 3 days or fewer, a warning at 30 or fewer. */
export const EXPIRY_ERROR_DAYS = 3;
export const EXPIRY_WARNING_DAYS = 30;

const DAY_MS = 86_400_000;

/** What the console says about an expiry: nothing, a warning or an error, and the days left. */
export type ExpiryNotice = { severity: 'error' | 'warning'; expired: boolean; days: number } | null;

/** Whole days from now until an expiry (UTC ISO time), rounded down like the server's count; below 0 once past. */
export function daysUntil(expires: string, now: number): number {
  return Math.floor((Date.parse(expires) - now) / DAY_MS);
}

/**
 * The notice for a number of days left (spec §4 Licence notice): below 0 an error ('expired');
 * 0 to 3 an error ('expires in N days'); 4 to 30 a warning with the same text; above 30 nothing.
 */
export function expiryNotice(days: number | null | undefined): ExpiryNotice {
  if (days === null || days === undefined || Number.isNaN(days)) return null;
  if (days < 0) return { severity: 'error', expired: true, days };
  if (days <= EXPIRY_ERROR_DAYS) return { severity: 'error', expired: false, days };
  if (days <= EXPIRY_WARNING_DAYS) return { severity: 'warning', expired: false, days };
  return null;
}

/** The licence's days until expiry (spec §3 daysUntilExpired), or null without one. */
export function licenseDays(license: { expires: string | null }, now: number): number | null {
  return license.expires ? daysUntil(license.expires, now) : null;
}
