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
  permissionCatalogue: { name: 'permissionCatalogue', method: 'GET', path: '/api/permission' },
  listUsers: { name: 'listUsers', method: 'GET', path: '/api/user' },
  createUser: { name: 'createUser', method: 'POST', path: '/api/user' },
  deleteUser: { name: 'deleteUser', method: 'DELETE', path: '/api/user/{email}' },
  userRoles: { name: 'userRoles', method: 'GET', path: '/api/user/{email}/role' },
  removeUserRole: { name: 'removeUserRole', method: 'DELETE', path: '/api/user/{email}/role/{role}' },
  userReach: { name: 'userReach', method: 'GET', path: '/api/user/{email}/reach' },
  resetUserPassword: { name: 'resetUserPassword', method: 'POST', path: '/api/user/{email}/reset-password' },
  forgotPassword: { name: 'forgotPassword', method: 'POST', path: '/api/user/forgot-password' },
  resetPassword: { name: 'resetPassword', method: 'POST', path: '/api/user/reset-password' },
  signUp: { name: 'signUp', method: 'POST', path: '/api/users' },
  listSshKeys: { name: 'listSshKeys', method: 'GET', path: '/api/user/me/ssh-keys' },
  addSshKey: { name: 'addSshKey', method: 'POST', path: '/api/user/me/ssh-keys' },
  deleteSshKey: { name: 'deleteSshKey', method: 'DELETE', path: '/api/user/me/ssh-keys/{id}' },
  listRoles: { name: 'listRoles', method: 'GET', path: '/api/role' },
  createRole: { name: 'createRole', method: 'POST', path: '/api/role' },
  getRole: { name: 'getRole', method: 'GET', path: '/api/role/{name}' },
  addRolePermissions: { name: 'addRolePermissions', method: 'PUT', path: '/api/role/{name}/permissions' },
  removeRolePermissions: { name: 'removeRolePermissions', method: 'DELETE', path: '/api/role/{name}/permissions' },
  deleteRole: { name: 'deleteRole', method: 'DELETE', path: '/api/role/{name}' },
  setRoleUsers: { name: 'setRoleUsers', method: 'PUT', path: '/api/role/{name}/users' },
  listGroups: { name: 'listGroups', method: 'GET', path: '/api/group' },
  createGroup: { name: 'createGroup', method: 'POST', path: '/api/group' },
  deleteGroup: { name: 'deleteGroup', method: 'DELETE', path: '/api/group/{name}' },
  addGroupUsers: { name: 'addGroupUsers', method: 'PUT', path: '/api/group/{name}/users' },
  removeGroupUser: { name: 'removeGroupUser', method: 'DELETE', path: '/api/group/{name}/user/{email}' },
  addGroupAgents: { name: 'addGroupAgents', method: 'PUT', path: '/api/group/{name}/agents' },
  removeGroupAgent: { name: 'removeGroupAgent', method: 'DELETE', path: '/api/group/{name}/agent/{id}' },
  addChildGroups: { name: 'addChildGroups', method: 'PUT', path: '/api/group/{name}/groups' },
  removeChildGroup: { name: 'removeChildGroup', method: 'DELETE', path: '/api/group/{name}/group/{child}' },
  listApiKeys: { name: 'listApiKeys', method: 'GET', path: '/api/apikey' },
  createApiKey: { name: 'createApiKey', method: 'POST', path: '/api/apikey' },
  deleteApiKey: { name: 'deleteApiKey', method: 'DELETE', path: '/api/apikey/{uuid}' },
  getSettings: { name: 'getSettings', method: 'GET', path: '/api/settings' },
  saveSettings: { name: 'saveSettings', method: 'POST', path: '/api/settings' },
  publicSettings: { name: 'publicSettings', method: 'GET', path: '/api/settings/public' },
  listAgents: { name: 'listAgents', method: 'GET', path: '/api/agent' },
  getAgentConfig: { name: 'getAgentConfig', method: 'GET', path: '/api/agent/{id}/config' },
  saveAgentConfig: { name: 'saveAgentConfig', method: 'POST', path: '/api/agent/{id}/config' },
  deleteAgent: { name: 'deleteAgent', method: 'DELETE', path: '/api/agent/{id}' },
  listTunnels: { name: 'listTunnels', method: 'GET', path: '/api/tunneldefinition' },
  listAllTunnels: { name: 'listAllTunnels', method: 'GET', path: '/api/tunneldefinition/all' },
  createTunnel: { name: 'createTunnel', method: 'POST', path: '/api/tunneldefinition/{type}' },
  updateTunnel: { name: 'updateTunnel', method: 'PUT', path: '/api/tunneldefinition/{id}' },
  deleteTunnel: { name: 'deleteTunnel', method: 'DELETE', path: '/api/tunneldefinition/{id}' },
  setTunnelUsers: { name: 'setTunnelUsers', method: 'PUT', path: '/api/tunneldefinition/{id}/users' },
  setTunnelAgents: { name: 'setTunnelAgents', method: 'PUT', path: '/api/tunneldefinition/{id}/agents' },
  listRecordings: { name: 'listRecordings', method: 'GET', path: '/api/recording' },
  getRecordingDetail: { name: 'getRecordingDetail', method: 'GET', path: '/api/recording/{id}/data' },
  openRecording: { name: 'openRecording', method: 'POST', path: '/api/recording/{id}/ticket' },
  getRecordingCast: { name: 'getRecordingCast', method: 'GET', path: '/api/recording/{id}/cast' },
  verifyRecording: { name: 'verifyRecording', method: 'GET', path: '/api/recording/{id}/verify' },
  terminateTunnel: { name: 'terminateTunnel', method: 'DELETE', path: '/api/tunnel/{id}' },
} as const satisfies { [K in RouteName]?: RouteRef<K> };
