import type { ErrorBody } from '@gatehouse/contracts';

/** A non-2xx answer from the API, carrying its status and the server's error body. */
export class ApiError extends Error {
  /** HTTP status of the answer. */
  readonly status: number;
  /** The server's JSON error body, when it sent one. */
  readonly body: ErrorBody | null;

  constructor(status: number, body: ErrorBody | null) {
    super(body?.message ?? `HTTP ${String(status)}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/** Reads an error body if the value has the documented shape, else null. */
export function asErrorBody(value: unknown): ErrorBody | null {
  if (typeof value !== 'object' || value === null) return null;
  const candidate = value as Partial<ErrorBody>;
  if (typeof candidate.message !== 'string') return null;
  return {
    statusCode: typeof candidate.statusCode === 'number' ? candidate.statusCode : 0,
    error: typeof candidate.error === 'string' ? candidate.error : '',
    message: candidate.message,
    ...(Array.isArray(candidate.errors) ? { errors: candidate.errors.filter(isString) } : {}),
    ...(candidate.response && Array.isArray(candidate.response.errors)
      ? { response: { errors: candidate.response.errors.filter(isString) } }
      : {}),
    ...(candidate.reauth === 'single-use' || candidate.reauth === 'freshness' ? { reauth: candidate.reauth } : {}),
    ...(candidate.two_factor === 'enrol' || candidate.two_factor === 'verify'
      ? { two_factor: candidate.two_factor }
      : {}),
  };
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

/**
 * The text to show for a failed call: the server's message, else the given fallback
 * (the translated 'something went wrong', spec §8).
 */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.body?.message || fallback;
  return fallback;
}
