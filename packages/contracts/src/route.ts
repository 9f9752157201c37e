import { z } from 'zod';
import type { Permission } from './permissions.js';

/**
 * Who may call a route. `public`: anyone. `signed-in`: any valid token. `permissions`: a valid
 * token whose holder has at least one of the listed permissions. `admin-role`: a holder of the
 * admin role (spec §6 gates registration keys and component logs on it). `agent`: an enrolled
 * agent's identity headers. `ticket`: a signed media ticket in ?ticket= stands in for the token
 * (players and download links cannot send headers).
 */
export type RouteAccess =
  | { kind: 'public' }
  | { kind: 'signed-in' }
  | { kind: 'permissions'; anyOf: readonly Permission[]; ticket?: true }
  | { kind: 'admin-role' }
  | { kind: 'agent' };

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One call of the API, declared once: the server binds its handler to it and validates with its
 * schemas, the console derives its typed client from it, and the OpenAPI document comes from it.
 */
export interface RouteContract {
  /** Stable identifier, also the audit action for state-changing calls. */
  id: string;
  method: HttpMethod;
  /** Path as the spec writes it, with `{name}` parameters. */
  path: string;
  summary: string;
  access: RouteAccess;
  /** OpenAPI tag. */
  tag: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Successful answer (status 200 unless `status` says otherwise). */
  response: z.ZodType;
  status?: number;
  /**
   * Raw answer of this content type instead of JSON (files with HTTP ranges, uploads): the
   * handler sends the reply itself; `response` then only documents.
   */
  raw?: string;
  /**
   * The call needs fresh authentication: a one-shot token, or a token issued in the last five
   * minutes (POST /api/auth/authorize gives either).
   */
  fresh?: true;
  /**
   * Callable before the second factor (issue 20): 'verify' with the token of a password sign-in
   * still waiting for its second factor; 'enrol' by someone whose role requires a second factor
   * they have not enrolled yet. Every other route refuses both with 403.
   */
  beforeSecondFactor?: 'enrol' | 'verify';
  /** Statuses other than success this call may answer, with why. */
  errors?: Partial<Record<number, string>>;
}

/** Declares a route, keeping its literal types for the typed client. */
export function defineRoute<const T extends RouteContract>(route: T): T {
  return route;
}

/** The JSON body of every error the API answers (4xx and 5xx). */
export const ErrorBody = z
  .object({
    statusCode: z.number().int().describe('HTTP status, repeated for clients that lose it'),
    error: z.string().describe('Short name of the status'),
    message: z.string().describe('What went wrong and what to do about it'),
    errors: z.array(z.string()).optional().describe('Each problem found, one per entry'),
    response: z
      .object({ errors: z.array(z.string()) })
      .optional()
      .describe('Sign-in failures, as the spec reads them (response.errors)'),
    reauth: z
      .enum(['single-use', 'freshness'])
      .optional()
      .describe('401 only: the call needs a fresh authorization (POST /api/auth/authorize), then a retry'),
    two_factor: z
      .enum(['enrol', 'verify'])
      .optional()
      .describe(
        '403: enrol a second factor first (a role requires one), or finish the sign-in with it (POST /api/auth/second-factor); ' +
          '401 of POST /api/auth/authorize: send the second factor too',
      ),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** An empty success answer carrying a confirmation message. */
export const MessageBody = z
  .object({ message: z.string().describe('Confirmation for the user') })
  .meta({ id: 'MessageBody' });

/** Shorthand for the typed pieces of a route. A body as clients send it (before parsing). */
export type BodyOf<R extends RouteContract> = R['body'] extends z.ZodType ? z.input<R['body']> : undefined;
/** A body as the server's handler receives it (parsed: trimmed, defaults applied, lists split). */
export type ParsedBodyOf<R extends RouteContract> = R['body'] extends z.ZodType ? z.output<R['body']> : undefined;
export type QueryOf<R extends RouteContract> = R['query'] extends z.ZodType ? z.infer<R['query']> : undefined;
export type ParamsOf<R extends RouteContract> = R['params'] extends z.ZodType ? z.infer<R['params']> : undefined;
export type ResponseOf<R extends RouteContract> = z.infer<R['response']>;
