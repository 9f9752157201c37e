import type { SecurityBody, SecuritySettings } from '../api/security-settings';
import type { FieldError } from './general-form';

/** Methods a limited endpoint may name ('*' is any). */
export const ENDPOINT_METHODS = ['GET', 'POST', 'PUT', 'DELETE', '*'] as const;
/** One of them. */
export type EndpointMethod = (typeof ENDPOINT_METHODS)[number];

/** Bounds the server applies (packages/contracts routes/auth.ts). */
export const SECURITY_LIMITS = {
  endpoints: 100,
  pathLength: 500,
  /** Token lifetime in minutes: 300 s to 30 days. */
  maxAgeMinutes: { min: 5, max: 30 * 24 * 60 },
} as const;

/** One row of the limited endpoints editor. `id` keeps React keys stable while rows move. */
export interface EndpointRow {
  id: number;
  method: EndpointMethod;
  path: string;
}

/** The security settings form as typed. */
export interface SecurityForm {
  singleUse: boolean;
  freshness: boolean;
  endpoints: EndpointRow[];
  /** Token lifetime in minutes, as typed. */
  maxAgeMinutes: string;
}

/** What can be wrong: the lifetime, and each row's path (by row id). */
export interface SecurityErrors {
  maxAgeMinutes?: FieldError;
  endpoints?: FieldError;
  paths: Record<number, FieldError>;
}

let nextId = 1;

/** A new row; ids only need to be unique on this page. */
export function newEndpointRow(method: EndpointMethod = 'POST', path = ''): EndpointRow {
  nextId += 1;
  return { id: nextId, method, path };
}

function asMethod(method: string): EndpointMethod {
  const upper = method.toUpperCase();
  return (ENDPOINT_METHODS as readonly string[]).includes(upper) ? (upper as EndpointMethod) : '*';
}

/** The form for the stored settings. */
export function toSecurityForm(settings: SecuritySettings): SecurityForm {
  return {
    singleUse: settings.api_limit_single_use,
    freshness: settings.api_limit_freshness,
    endpoints: settings.api_limit_endpoints.map((e) => newEndpointRow(asMethod(e.method), e.path)),
    maxAgeMinutes: String(Math.round(settings.effectiveTokenMaxAge / 60)),
  };
}

/** The reason a regular expression does not compile, or null when it does. */
export function regexProblem(pattern: string): string | null {
  try {
    new RegExp(pattern);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Checks the form as the server would: whole minutes in bounds, and every path a compiling regular expression. */
export function validateSecurityForm(form: SecurityForm): SecurityErrors {
  const errors: SecurityErrors = { paths: {} };
  const minutes = /^\s*\d+\s*$/.test(form.maxAgeMinutes) ? Number(form.maxAgeMinutes) : Number.NaN;
  const { min, max } = SECURITY_LIMITS.maxAgeMinutes;
  if (!(minutes >= min && minutes <= max))
    errors.maxAgeMinutes = { key: 'settings.security.errors.maxAge', values: { min, max } };
  if (form.endpoints.length > SECURITY_LIMITS.endpoints)
    errors.endpoints = { key: 'settings.security.errors.tooMany', values: { max: SECURITY_LIMITS.endpoints } };
  for (const row of form.endpoints) {
    if (row.path === '') errors.paths[row.id] = { key: 'settings.security.errors.pathRequired' };
    else if (row.path.length > SECURITY_LIMITS.pathLength)
      errors.paths[row.id] = { key: 'settings.general.errors.tooLong', values: { max: SECURITY_LIMITS.pathLength } };
    else {
      const problem = regexProblem(row.path);
      if (problem !== null)
        errors.paths[row.id] = { key: 'settings.security.errors.regex', values: { reason: problem } };
    }
  }
  return errors;
}

/** True when validateSecurityForm found nothing. */
export function isSecurityFormValid(errors: SecurityErrors): boolean {
  return !errors.maxAgeMinutes && !errors.endpoints && Object.keys(errors.paths).length === 0;
}

/** The body to save; call only when the form is valid. */
export function toSecurityBody(form: SecurityForm): SecurityBody {
  return {
    api_limit_single_use: form.singleUse,
    api_limit_freshness: form.freshness,
    api_limit_endpoints: form.endpoints.map(({ method, path }) => ({ method, path })),
    effectiveTokenMaxAge: Number(form.maxAgeMinutes) * 60,
  };
}
