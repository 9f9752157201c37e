import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type ParsedBodyOf,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
  type RouteContract,
  type RouteName,
  type Routes,
  FRESH_TOKEN_SECONDS,
  TOKEN_HEADER,
  TOKEN_HEADER_ALT,
  routes,
} from '@gatehouse/contracts';
import type { ZodType } from 'zod';
import type { AuthService } from '../modules/auth/auth.service.js';
import { type Principal, holdsAdminRole } from '../modules/auth/principal.js';
import { HttpError, ReauthError, SecondFactorError, describeIssues } from './errors.js';

/** What a handler may add to the audit entry of its request. */
export interface AuditNote {
  actor?: string;
  actorId?: string;
  target?: string;
  detail?: Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    /** The agent calling a route of access kind 'agent'. */
    agent?: { id: string; hostname: string };
    auditNote: AuditNote;
  }
  interface FastifyContextConfig {
    routeId?: string;
    auditable?: boolean;
  }
}

/** Everything a handler receives, validated and typed from its contract. */
export interface HandlerContext<R extends RouteContract> {
  params: ParamsOf<R>;
  query: QueryOf<R>;
  body: ParsedBodyOf<R>;
  principal: R['access'] extends { kind: 'public' } ? Principal | undefined : Principal;
  token: string | undefined;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A route's handler: business logic only; validation and access were done before it runs. */
export type Handler<R extends RouteContract> = (ctx: HandlerContext<R>) => Promise<ResponseOf<R>>;

/** One handler for every route of the contract table: the compiler refuses a missing one. */
export type Handlers = { [K in RouteName]: Handler<Routes[K]> };

/** The token a request carries, from Authentication-Token or x-auth-token. */
export function tokenOf(request: FastifyRequest): string | undefined {
  const raw = request.headers[TOKEN_HEADER] ?? request.headers[TOKEN_HEADER_ALT];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value || undefined; // an empty header is no token
}

function parsePart<T>(schema: ZodType | undefined, value: unknown, where: string): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (result.success) return result.data as T;
  const errors = describeIssues(result.error, where);
  throw new HttpError(400, errors[0] ?? `Invalid ${where.toLowerCase()}`, errors);
}

/** Who else than a token holder may call: agents by their identity, players by a media ticket. */
export interface Gatekeeper {
  auth: AuthService;
  /** Which re-authorization the security settings demand for a call of this route (never its raw URL). */
  limitFor(route: RouteContract): Promise<'single-use' | 'freshness' | undefined>;
  /** Uses up a one-shot token; false when another call used it first. */
  consumeOneShot(tokenHash: string): Promise<boolean>;
  /** The agent these identity headers prove, or undefined. */
  agent(request: FastifyRequest): Promise<{ id: string; hostname: string } | undefined>;
  /** The token hash a media ticket for this object carries, or undefined. */
  ticket(ticket: string, objectId: string): string | undefined;
}

/** The caller of a ticket route: the token header first, else ?ticket= for the object in the path. */
async function principalOf(route: RouteContract, request: FastifyRequest, token: string | undefined, gate: Gatekeeper) {
  if (token) return gate.auth.authenticate(token);
  if (route.access.kind !== 'permissions' || !route.access.ticket) return undefined;
  const ticket = (request.query as { ticket?: unknown } | undefined)?.ticket;
  const objectId = (request.params as { id?: unknown } | undefined)?.id;
  if (typeof ticket !== 'string' || typeof objectId !== 'string') return undefined;
  const tokenHash = gate.ticket(ticket, objectId);
  if (!tokenHash) throw new HttpError(401, 'This link has expired or is not valid. Open the recording again.');
  return gate.auth.authenticateHash(tokenHash);
}

/** The one place that enforces a route's declared access (401 and 403). */
async function authorize(route: RouteContract, request: FastifyRequest, token: string | undefined, gate: Gatekeeper) {
  if (route.access.kind === 'agent') {
    const agent = await gate.agent(request);
    if (!agent) throw new HttpError(401, 'Only an enrolled agent may call this: send its identity headers.');
    request.agent = agent;
    return undefined;
  }
  const principal = await principalOf(route, request, token, gate);
  // Known before the access checks, so the audit entry of a refused call names who was refused.
  request.principal = principal;
  if (route.access.kind === 'public') return principal;
  const ticketed = route.access.kind === 'permissions' && route.access.ticket;
  if (!token && !ticketed) throw new HttpError(401, 'Sign in first: this call needs an Authentication-Token header.');
  if (!token && !principal) throw new HttpError(401, 'Sign in first: send an Authentication-Token header or a ticket.');
  if (!principal)
    throw new HttpError(
      401,
      'Your session has ended: it expired or was signed out, or your account was changed or deleted. Sign in again.',
    );
  checkSecondFactor(route, principal);
  if (route.access.kind === 'admin-role' && !holdsAdminRole(principal)) {
    throw new HttpError(403, 'Only holders of the admin role may do this.');
  }
  if (route.access.kind === 'permissions' && !route.access.anyOf.some((p) => principal.permissions.has(p))) {
    throw new HttpError(403, `You need one of these permissions for this: ${route.access.anyOf.join(', ')}.`);
  }
  await checkFreshness(route, request, principal, gate);
  return principal;
}

/**
 * Two-factor sign-in (issue 20): a sign-in still waiting for its second factor reaches only the
 * calls that finish it; someone a role requires to have a second factor reaches only enrolment
 * (and what the console needs to show it) until they have one.
 */
function checkSecondFactor(route: RouteContract, principal: Principal) {
  if (principal.tokenKind === 'mfa' && route.beforeSecondFactor !== 'verify')
    throw new SecondFactorError(
      'verify',
      403,
      'Finish signing in first: enter the code from your authenticator app, a recovery code, or use your passkey.',
    );
  if (principal.mustEnrol && route.beforeSecondFactor === undefined)
    throw new SecondFactorError(
      'enrol',
      403,
      'A role of yours requires two-factor sign-in: set up an authenticator app or a passkey in My account before anything else.',
    );
}

/**
 * The calls that re-authorize: with the password, or the second factor after a single sign-on; and
 * the passkey challenge either of them needs first (issue 20).
 */
const REAUTHORIZING = new Set(['auth.authorize', 'sso.second-factor', 'two-factor.passkey.challenge']);

/**
 * Re-authorization (spec §2.6): a one-shot token authenticates exactly one call; calls the
 * security settings list need one (single-use) or a token issued minutes ago (freshness), and
 * routes marked fresh need either.
 */
async function checkFreshness(route: RouteContract, request: FastifyRequest, principal: Principal, gate: Gatekeeper) {
  const oneShot = principal.tokenKind === 'oneshot';
  if (oneShot && !(await gate.consumeOneShot(principal.tokenHash)))
    throw new HttpError(401, 'This authorization was used already: authorize again.');
  // Re-authorizing itself is never limited, or a broad pattern would lock everyone out.
  if (REAUTHORIZING.has(route.id)) return;
  const fresh = Date.now() - principal.issuedAt.getTime() < FRESH_TOKEN_SECONDS * 1000;
  // The route that will run decides, whatever encoding of its path (or HEAD for GET) reached it.
  const limit = await gate.limitFor(route);
  if (limit === 'single-use' && !oneShot) throw new ReauthError('single-use');
  if ((limit === 'freshness' || route.fresh) && !oneShot && !fresh) throw new ReauthError(limit ?? 'freshness');
}

/** Binds every contract route to its handler, with validation and access control in front. */
export function bindRoutes(app: FastifyInstance, handlers: Handlers, gate: Gatekeeper): void {
  for (const name of Object.keys(routes) as RouteName[]) {
    const route: RouteContract = routes[name];
    const handler = handlers[name] as Handler<RouteContract>;
    app.route({
      method: route.method,
      url: route.path.replace(/\{(\w+)\}/g, ':$1'),
      config: { routeId: route.id, auditable: route.method !== 'GET' },
      handler: async (request, reply) => {
        const token = tokenOf(request);
        const principal = await authorize(route, request, token, gate);
        request.principal = principal;
        // Typed per route by the Handlers map; here every route is handled alike.
        const params = parsePart<never>(route.params, request.params, 'Path');
        const query = parsePart<never>(route.query, request.query, 'Query');
        // Raw routes take their body as bytes (uploads) and send their own reply (files with ranges).
        const body = route.raw ? (request.body as never) : parsePart<never>(route.body, request.body ?? {}, 'Body');
        const result = await handler({ params, query, body, principal: principal as Principal, token, request, reply });
        // A handler that sent its own reply (a file, with ranges) is answered by it: a reply is
        // thenable, so awaiting the handler yields undefined, and reply.sent tells.
        if (reply.sent) return reply;
        return reply.status(route.status ?? 200).send(result);
      },
    });
  }
}
