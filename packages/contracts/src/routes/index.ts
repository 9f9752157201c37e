import type { RouteContract } from '../route.js';
import * as auth from './auth.js';
import * as system from './system.js';

/** Every route of the API, by id. A route the server serves but this table lacks is a bug. */
export const routes = {
  login: auth.login,
  logout: auth.logout,
  me: auth.me,
  changePassword: auth.changePassword,
  security: auth.security,
  ssoProvider: auth.ssoProvider,
  health: system.health,
  metadata: system.metadata,
  navigationCounts: system.navigationCounts,
  auditList: system.auditList,
  permissionCatalogue: system.permissionCatalogue,
  openapi: system.openapi,
} as const satisfies Record<string, RouteContract>;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

/** The route table as a list, for binding, the OpenAPI document and the authorization matrix. */
export const routeList: readonly RouteContract[] = Object.values(routes);

export * from './auth.js';
export * from './system.js';
