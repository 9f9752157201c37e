import type { FastifyError, FastifyInstance } from 'fastify';
import type { ErrorBody } from '@gatehouse/contracts';
import { ZodError } from 'zod';
import type { DatabaseHealth } from '../db/health.js';

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** An error the API answers as it is: status, message and, optionally, each problem. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 401: the call needs a fresh authorization (POST /api/auth/authorize), then a retry. */
export class ReauthError extends HttpError {
  constructor(
    readonly reauth: 'single-use' | 'freshness',
    message = 'Authorization needed: confirm it is you, then try again.',
  ) {
    super(401, message);
  }
}

/**
 * A second factor is missing (issue 20): 403 'enrol' (a role requires one not set up yet), 403
 * 'verify' (a sign-in waiting for its second step), 401 'verify' (re-authorization needs it too).
 */
export class SecondFactorError extends HttpError {
  constructor(
    readonly twoFactor: 'enrol' | 'verify',
    status: 401 | 403,
    message: string,
  ) {
    super(status, message, [message]);
  }
}

/** Builds the error body every failure uses. */
export function errorBody(status: number, message: string, errors?: string[]): ErrorBody {
  return {
    statusCode: status,
    error: STATUS_NAMES[status] ?? 'Error',
    message,
    ...(errors && errors.length > 0 ? { errors, response: { errors } } : {}),
  };
}

/** Turns zod issues into readable lines; custom messages stand alone, built-in ones get the field. */
export function describeIssues(error: ZodError, where: string): string[] {
  return error.issues.map((issue) => {
    const field = issue.path.join('.');
    if (issue.code === 'custom' || !/^(Invalid|Too|Unrecognized|Expected)/.test(issue.message)) return issue.message;
    return field ? `${where} field '${field}': ${issue.message}` : `${where}: ${issue.message}`;
  });
}

/** What a caller hears while the database is away; the server retries on its own. */
export const DATABASE_AWAY_MESSAGE =
  'The database is not reachable right now. Gatehouse reconnects on its own: try again in a few seconds.';

/**
 * Maps every failure to a clear JSON answer; nothing unexpected leaks as a stack trace. A failure
 * that says the database is away answers 503 with Retry-After (and marks it down in `health`),
 * logged once per outage by the health tracker rather than once per request.
 */
export function installErrorHandler(app: FastifyInstance, health?: DatabaseHealth): void {
  app.setErrorHandler((error: FastifyError | HttpError | ZodError, request, reply) => {
    if (error instanceof HttpError) {
      const body = errorBody(error.status, error.message, error.errors);
      void reply
        .headers(error.headers)
        .status(error.status)
        .send(
          error instanceof ReauthError
            ? { ...body, reauth: error.reauth }
            : error instanceof SecondFactorError
              ? { ...body, two_factor: error.twoFactor }
              : body,
        );
      return;
    }
    if (error instanceof ZodError) {
      const errors = describeIssues(error, 'Request');
      void reply.status(400).send(errorBody(400, errors[0] ?? 'Invalid request', errors));
      return;
    }
    if (health?.failed(error)) {
      void reply.status(503).header('retry-after', '5').send(errorBody(503, DATABASE_AWAY_MESSAGE));
      return;
    }
    const code = error.code;
    const status = error.statusCode ?? 500;
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      void reply.status(400).send(errorBody(400, 'The request body is not valid JSON. Check its syntax.'));
      return;
    }
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = request.routeOptions.bodyLimit ?? 1024 * 1024;
      const size = limit >= 1024 * 1024 ? `${Math.round(limit / 1024 / 1024)} MiB` : `${Math.round(limit / 1024)} KiB`;
      void reply.status(413).send(errorBody(413, `The request body is too large. The limit is ${size}.`));
      return;
    }
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      void reply.status(415).send(errorBody(415, 'Send the request body as application/json.'));
      return;
    }
    if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      void reply.status(400).send(errorBody(400, 'The request says it carries JSON but its body is empty.'));
      return;
    }
    if (status >= 400 && status < 500) {
      void reply.status(status).send(errorBody(status, error.message));
      return;
    }
    request.log.error({ err: error }, 'unhandled error');
    void reply.status(500).send(errorBody(500, 'The server failed to handle this request. It has been logged.'));
  });
}
