import type { RouteName, Routes } from '@gatehouse/contracts';

/** What the console needs of a contract route at run time: its name, method and path. */
export interface RouteRef<K extends RouteName> {
  name: K;
  method: Routes[K]['method'];
  path: Routes[K]['path'];
}

/**
 * The calls the console makes, by contract route name. `satisfies` checks each method and path
 * against the contract's literal types, so a route that changes there fails the console's build;
 * only types come from the contract, so its zod schemas stay out of the browser bundle.
 */
export const API = {
  login: { name: 'login', method: 'POST', path: '/api/login' },
  logout: { name: 'logout', method: 'POST', path: '/api/logout' },
  me: { name: 'me', method: 'GET', path: '/api/user/me' },
  changePassword: { name: 'changePassword', method: 'POST', path: '/api/user/password' },
  security: { name: 'security', method: 'GET', path: '/api/security' },
  ssoProvider: { name: 'ssoProvider', method: 'GET', path: '/sso' },
  metadata: { name: 'metadata', method: 'GET', path: '/api/metadata' },
  navigationCounts: { name: 'navigationCounts', method: 'GET', path: '/api/navigation/counts' },
} as const satisfies { [K in RouteName]?: RouteRef<K> };
