import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type ParsedBodyOf,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
  type RouteContract,
  type RouteName,
  type Routes,
  TOKEN_HEADER,
  TOKEN_HEADER_ALT,
  routes,
} from '@gatehouse/contracts';
import type { ZodType } from 'zod';
import type { AuthService } from '../modules/auth/auth.service.js';
import { type Principal, holdsAdminRole } from '../modules/auth/principal.js';
import { HttpError, describeIssues } from './errors.js';

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
  return value && value.length > 0 ? value : undefined;
}

function parsePart<T>(schema: ZodType | undefined, value: unknown, where: string): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (result.success) return result.data as T;
  const errors = describeIssues(result.error, where);
  throw new HttpError(400, errors[0] ?? `Invalid ${where.toLowerCase()}`, errors);
}

/** The one place that enforces a route's declared access (401 and 403). */
async function authorize(route: RouteContract, token: string | undefined, auth: AuthService) {
  const principal = token ? await auth.authenticate(token) : undefined;
  if (route.access.kind === 'public') return principal;
  if (!token) throw new HttpError(401, 'Sign in first: this call needs an Authentication-Token header.');
  if (!principal) throw new HttpError(401, 'Your session has expired or its token is not valid. Sign in again.');
  if (route.access.kind === 'admin-role' && !holdsAdminRole(principal)) {
    throw new HttpError(403, 'Only holders of the admin role may do this.');
  }
  if (route.access.kind === 'permissions' && !route.access.anyOf.some((p) => principal.permissions.has(p))) {
    throw new HttpError(403, `You need one of these permissions for this: ${route.access.anyOf.join(', ')}.`);
  }
  return principal;
}

/** Binds every contract route to its handler, with validation and access control in front. */
export function bindRoutes(app: FastifyInstance, handlers: Handlers, auth: AuthService): void {
  for (const name of Object.keys(routes) as RouteName[]) {
    const route: RouteContract = routes[name];
    const handler = handlers[name] as Handler<RouteContract>;
    app.route({
      method: route.method,
      url: route.path.replace(/\{(\w+)\}/g, ':$1'),
      config: { routeId: route.id, auditable: route.method !== 'GET' },
      handler: async (request, reply) => {
        const token = tokenOf(request);
        const principal = await authorize(route, token, auth);
        request.principal = principal;
        // Typed per route by the Handlers map; here every route is handled alike.
        const params = parsePart<never>(route.params, request.params, 'Path');
        const query = parsePart<never>(route.query, request.query, 'Query');
        const body = parsePart<never>(route.body, request.body ?? {}, 'Body');
        const result = await handler({ params, query, body, principal: principal as Principal, token, request, reply });
        return reply.status(route.status ?? 200).send(result);
      },
    });
  }
}
