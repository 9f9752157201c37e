import { REGISTRATION_KEY_LIMITS } from '@gatehouse/contracts';

/** The unit the validity is typed in. */
export type ValidityUnit = 'hours' | 'days';

/** The limit fields as typed: texts, so a half-typed number stays on screen. */
export interface KeyLimitsForm {
  /** How long the key works, in `unit`s. */
  validFor: string;
  unit: ValidityUnit;
  /** How many agents it may enrol in all. */
  uses: string;
}

/** What creating a key sends for its limits (the contract's createApiKey body fields). */
export interface KeyLimits {
  expires_in_hours: number;
  uses: number;
}

/** Message ids of the fields' problems, by field. */
export interface KeyLimitsErrors {
  validFor?: string;
  uses?: string;
}

const HOURS_PER: Record<ValidityUnit, number> = { hours: 1, days: 24 };

/** The largest validity a unit allows (a year: 8760 hours, 365 days). */
export function maxValidFor(unit: ValidityUnit): number {
  return Math.floor(REGISTRATION_KEY_LIMITS.maxHours / HOURS_PER[unit]);
}

/** The server's defaults: one agent, within 24 hours. */
export function defaultKeyLimits(): KeyLimitsForm {
  return {
    validFor: String(REGISTRATION_KEY_LIMITS.defaultHours),
    unit: 'hours',
    uses: String(REGISTRATION_KEY_LIMITS.defaultUses),
  };
}

/** A whole number from min to max typed as digits only, else null. */
function wholeNumber(text: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const value = Number(text.trim());
  return value >= min && value <= max ? value : null;
}

/**
 * Checks the fields as the contract does (whole numbers; 1 hour to a year; 1 to 10,000 agents)
 * and answers the body fields, or the problems by field.
 */
export function parseKeyLimits(form: KeyLimitsForm): { limits: KeyLimits } | { errors: KeyLimitsErrors } {
  const validFor = wholeNumber(form.validFor, 1, maxValidFor(form.unit));
  const uses = wholeNumber(form.uses, 1, REGISTRATION_KEY_LIMITS.maxUses);
  if (validFor === null || uses === null) {
    return {
      errors: {
        ...(validFor === null ? { validFor: `keyLimits.validForRange.${form.unit}` } : {}),
        ...(uses === null ? { uses: 'keyLimits.usesRange' } : {}),
      },
    };
  }
  return { limits: { expires_in_hours: validFor * HOURS_PER[form.unit], uses } };
}

/** Whether a listed key still enrols agents: it works until it expires or its uses run out. */
export type KeyStatus = 'usable' | 'expired' | 'used-up';

/** A listed key's status at `now` (ms since the epoch); an expired key counts as expired even if used up. */
export function keyStatus(key: { expires_at: string; uses_left: number }, now: number): KeyStatus {
  if (Date.parse(key.expires_at) <= now) return 'expired';
  return key.uses_left <= 0 ? 'used-up' : 'usable';
}
