import { type ErrorBody, TOKEN_HEADER, TOKEN_HEADER_ALT } from '@gatehouse/contracts';
import { type HttpHandler, HttpResponse, delay, http } from 'msw';
import { base64 } from './prng';
import { MOCK_ROUTES, type MockRouteName } from './routes';
import type { Answer } from './types';

/** Every mock answer waits this long, so loading states show as they would over a network (spec §9). */
export const MOCK_DELAY_MS = 200;

/** What a mock resolver gets of the request. */
export interface MockCall {
  /** Path values, decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON body, or undefined. */
  body: unknown;
  request: Request;
  /** Email of the signed-in caller (from the mock token), or null. */
  caller: string | null;
}

/** A refusal the way the server words it: thrown by a resolver, answered as the contract's ErrorBody. */
export class MockError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Partial<ErrorBody> = {},
  ) {
    super(message);
  }
}

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  416: 'Range Not Satisfiable',
  500: 'Internal Server Error',
};

/** An error answer with the contract's ErrorBody. */
export function errorResponse(status: number, message: string, extra: Partial<ErrorBody> = {}): Response {
  const body: ErrorBody = { statusCode: status, error: STATUS_NAMES[status] ?? 'Error', message, ...extra };
  return HttpResponse.json(body, { status });
}

function encode(text: string): string {
  return base64(new TextEncoder().encode(text)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decode(text: string): string | null {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** A mock token names its holder, so a session survives a reload (the mock keeps no sessions). */
export function mockToken(email: string, kind: 'session' | 'oneshot' | 'ticket' = 'session'): string {
  return `mock-${kind}.${encode(email)}`;
}

/** The email a mock token names, or null for anything else (such as a real server's token). */
export function callerOf(token: string | null | undefined): string | null {
  const match = /^mock-(?:session|oneshot|ticket)\.([\w-]+)$/.exec(token ?? '');
  const email = match?.[1] ? decode(match[1]) : null;
  return email && email.includes('@') ? email : null;
}

/** Where the console's calls go and how long answers wait. */
export interface MockContext {
  /** The console's base URL, ending in '/': calls are relative to it (lib/api-client buildUrl). */
  base: string;
  delayMs: number;
}

/** A handler and the contract route it answers. */
export interface NamedHandler {
  name: MockRouteName;
  handler: HttpHandler;
}

/** What a resolver answers: the route's typed body, or a ready response (files, errors). */
export type Resolver<K extends MockRouteName> = (
  call: MockCall,
) => Answer<K> | Response | Promise<Answer<K> | Response>;

const METHODS = { GET: http.get, POST: http.post, PUT: http.put, DELETE: http.delete } as const;

async function readBody(request: Request): Promise<unknown> {
  if (request.method === 'GET') return undefined;
  const text = await request.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function flatParams(params: Record<string, string | readonly string[] | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => [key, typeof value === 'string' ? value : (value?.join('/') ?? '')]),
  );
}

/**
 * The msw handler of one contract route: checks the mock token where the route needs one, waits
 * the mock delay, and answers the resolver's typed body (with the route's success status).
 */
export function route<K extends MockRouteName>(
  context: MockContext,
  name: K,
  resolve: Resolver<K>,
  status = 200,
): NamedHandler {
  const ref = MOCK_ROUTES[name];
  const url = `${context.base}${ref.path.slice(1).replace(/\{(\w+)\}/g, ':$1')}`;
  const handler = METHODS[ref.method](url, async ({ request, params }) => {
    await delay(context.delayMs);
    const query = new URL(request.url).searchParams;
    const token = request.headers.get(TOKEN_HEADER) ?? request.headers.get(TOKEN_HEADER_ALT);
    const caller = callerOf(token) ?? (ref.access === 'ticket' ? callerOf(query.get('ticket')) : null);
    if (ref.access !== 'public' && !caller) return errorResponse(401, 'Sign in first: this call needs a session.');
    try {
      const answer = await resolve({
        params: flatParams(params),
        query,
        body: await readBody(request),
        request,
        caller,
      });
      if (answer instanceof Response) return answer;
      return new HttpResponse(JSON.stringify(answer), { status, headers: { 'Content-Type': 'application/json' } });
    } catch (error) {
      if (error instanceof MockError) return errorResponse(error.status, error.message, error.extra);
      return errorResponse(500, error instanceof Error ? error.message : String(error));
    }
  });
  return { name, handler };
}
