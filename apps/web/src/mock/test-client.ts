import { type RouteName, routes } from '@gatehouse/contracts';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';
import { createMockApi } from './handlers';
import { mockToken } from './http';
import { MOCK_ROUTES, type MockRouteName } from './routes';
import { createMockState } from './state';

/** Where the tests' console lives. */
export const TEST_BASE = 'http://console.test/gatehouse/';
/** The moment the tests' data is generated around. */
export const TEST_NOW = Date.now();
/** The admin the tests call as. */
export const ADMIN = 'alice.martin@acme.example';

/** One call to the mock API. */
export interface TestCall {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** The caller's email (a mock session token), or null for no token. */
  as?: string | null;
  headers?: Record<string, string>;
}

/** What a call answered: status, parsed JSON (or null), the raw response. */
export interface TestAnswer {
  status: number;
  body: unknown;
  response: Response;
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/**
 * Starts the mock API in Node (msw's setupServer) for the calling test file, without the delay,
 * and answers a function that calls one contract route by name.
 */
export function serveMockApi(delayMs = 0) {
  const api = createMockApi({ base: TEST_BASE, delayMs, state: createMockState(TEST_NOW) });
  const server = setupServer(...api.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  async function call(name: MockRouteName, options: TestCall = {}): Promise<TestAnswer> {
    const ref = MOCK_ROUTES[name];
    const path = ref.path.replace(/\{(\w+)\}/g, (_m, key: string) => encodeURIComponent(options.params?.[key] ?? ''));
    const url = new URL(path.slice(1), TEST_BASE);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
    const as = options.as === undefined ? ADMIN : options.as;
    const headers: Record<string, string> = { ...options.headers };
    if (as) headers['authentication-token'] = mockToken(as);
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, {
      method: ref.method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.clone().text();
    return { status: response.status, body: parseJson(text), response };
  }

  /** Calls a route and checks its answer against the contract's response schema; answers the parsed body. */
  async function callOk(name: MockRouteName, options: TestCall = {}): Promise<unknown> {
    const answer = await call(name, options);
    const expected = (routes[name as RouteName] as { status?: number }).status ?? 200;
    if (answer.status !== expected)
      throw new Error(`${name} answered ${answer.status}, not ${expected}: ${JSON.stringify(answer.body)}`);
    const parsed = routes[name as RouteName].response.safeParse(answer.body);
    if (!parsed.success) throw new Error(`${name} answered a shape the contract refuses: ${parsed.error.message}`);
    return answer.body;
  }

  return { api, call, callOk };
}
