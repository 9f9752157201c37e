import type { BodyOf, ResponseOf, RouteContract, RouteName, Routes } from '@gatehouse/contracts';
import { TOKEN_HEADER, TOKEN_HEADER_ALT } from '@gatehouse/contracts';
import { ApiError, asErrorBody } from './api-error';
import type { RouteRef } from './api-routes';
import { getToken, signOut } from './session';

/** Options of one API call. */
export interface CallOptions<R extends RouteContract> {
  /** JSON body, typed by the route's contract. */
  body?: BodyOf<R>;
  /** Query values; an empty string is sent as a bare key (`?include_auth_token`). */
  query?: Record<string, string | undefined>;
  /** Values for `{name}` placeholders in the path. */
  params?: Record<string, string>;
  /** False for calls made while signing in, where a 401 means wrong credentials. */
  signOutOn401?: boolean;
  /** Extra request headers some calls need, such as host-id on terminating a session. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * Turns a contract path into a URL relative to the page: '/api/login' becomes 'api/login',
 * so the console works under any origin and any base path.
 */
export function buildUrl(
  path: string,
  params?: Record<string, string>,
  query?: CallOptions<RouteContract>['query'],
): string {
  const filled = path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(params?.[name] ?? ''));
  const parts = Object.entries(query ?? {})
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) =>
      value === '' ? encodeURIComponent(key) : `${encodeURIComponent(key)}=${encodeURIComponent(value)}`,
    );
  const relative = filled.replace(/^\/+/, '');
  return parts.length > 0 ? `${relative}?${parts.join('&')}` : relative;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * Calls one route of the contract and returns its typed answer. Sends the stored token in both
 * token headers; a non-2xx answer throws ApiError, and a 401 on a signed-in call signs out.
 */
export async function apiCall<K extends RouteName>(
  route: RouteRef<K>,
  options: CallOptions<Routes[K]> = {},
): Promise<ResponseOf<Routes[K]>> {
  const token = getToken();
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) {
    headers[TOKEN_HEADER] = token;
    headers[TOKEN_HEADER_ALT] = token;
  }
  const init: RequestInit = { method: route.method, headers, credentials: 'same-origin' };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  if (options.signal) init.signal = options.signal;
  const response = await fetch(buildUrl(route.path, options.params, options.query), init);
  const body = await readBody(response);
  if (!response.ok) {
    if (response.status === 401 && token && options.signOutOn401 !== false) signOut();
    throw new ApiError(response.status, asErrorBody(body));
  }
  return body as ResponseOf<Routes[K]>;
}
