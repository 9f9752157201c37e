import type { RouteName } from '@gatehouse/contracts';
import type { RouteRef } from '../lib/api-routes';

/** Who may call a mocked route: anyone, a mock session, or a media ticket instead of the token. */
export type MockAccess = 'public' | 'signed-in' | 'ticket';

/** A contract route the mock answers: its method and path (checked against the contract) and access. */
export type MockRouteRef<K extends RouteName> = RouteRef<K> & { access: MockAccess };

const pub = 'public' as const;
const auth = 'signed-in' as const;

/**
 * Every call the console makes, by contract route name. `satisfies` checks each method and path
 * against the contract's literal types, like lib/api-routes, so a route that changes there fails
 * the build here too. Not mocked: the agents' own calls, SAML and OIDC callbacks, audit, OpenAPI.
 */
export const MOCK_ROUTES = {
  login: { name: 'login', method: 'POST', path: '/api/login', access: pub },
  logout: { name: 'logout', method: 'POST', path: '/api/logout', access: pub },
  me: { name: 'me', method: 'GET', path: '/api/user/me', access: auth },
  changePassword: { name: 'changePassword', method: 'POST', path: '/api/user/password', access: auth },
  security: { name: 'security', method: 'GET', path: '/api/security', access: auth },
  saveSecurity: { name: 'saveSecurity', method: 'POST', path: '/api/security', access: auth },
  authorize: { name: 'authorize', method: 'POST', path: '/api/auth/authorize', access: auth },
  ssoProvider: { name: 'ssoProvider', method: 'GET', path: '/sso', access: pub },
  getSsoConfig: { name: 'getSsoConfig', method: 'GET', path: '/sso/config', access: auth },
  saveSsoConfig: { name: 'saveSsoConfig', method: 'POST', path: '/sso/config', access: auth },
  testLdap: { name: 'testLdap', method: 'POST', path: '/sso/config/test-ldap', access: auth },
  testOidc: { name: 'testOidc', method: 'POST', path: '/sso/config/test-oidc', access: auth },
  ldapLogin: { name: 'ldapLogin', method: 'POST', path: '/ldap/login', access: pub },
  startSso: { name: 'startSso', method: 'POST', path: '/sso/start', access: pub },
  ssoToken: { name: 'ssoToken', method: 'GET', path: '/sso/token', access: pub },
  metadata: { name: 'metadata', method: 'GET', path: '/api/metadata', access: auth },
  navigationCounts: { name: 'navigationCounts', method: 'GET', path: '/api/navigation/counts', access: auth },
  permissionCatalogue: { name: 'permissionCatalogue', method: 'GET', path: '/api/permission', access: auth },
  listPods: { name: 'listPods', method: 'GET', path: '/api/pods', access: auth },
  podLogs: { name: 'podLogs', method: 'GET', path: '/api/pods/{name}/logs', access: auth },
  listUsers: { name: 'listUsers', method: 'GET', path: '/api/user', access: auth },
  createUser: { name: 'createUser', method: 'POST', path: '/api/user', access: auth },
  deleteUser: { name: 'deleteUser', method: 'DELETE', path: '/api/user/{email}', access: auth },
  userRoles: { name: 'userRoles', method: 'GET', path: '/api/user/{email}/role', access: auth },
  removeUserRole: { name: 'removeUserRole', method: 'DELETE', path: '/api/user/{email}/role/{role}', access: auth },
  userReach: { name: 'userReach', method: 'GET', path: '/api/user/{email}/reach', access: auth },
  resetUserPassword: {
    name: 'resetUserPassword',
    method: 'POST',
    path: '/api/user/{email}/reset-password',
    access: auth,
  },
  forgotPassword: { name: 'forgotPassword', method: 'POST', path: '/api/user/forgot-password', access: pub },
  resetPassword: { name: 'resetPassword', method: 'POST', path: '/api/user/reset-password', access: pub },
  signUp: { name: 'signUp', method: 'POST', path: '/api/users', access: pub },
  verifyEmail: { name: 'verifyEmail', method: 'POST', path: '/api/user/verify-email', access: pub },
  listSshKeys: { name: 'listSshKeys', method: 'GET', path: '/api/user/me/ssh-keys', access: auth },
  addSshKey: { name: 'addSshKey', method: 'POST', path: '/api/user/me/ssh-keys', access: auth },
  deleteSshKey: { name: 'deleteSshKey', method: 'DELETE', path: '/api/user/me/ssh-keys/{id}', access: auth },
  listRoles: { name: 'listRoles', method: 'GET', path: '/api/role', access: auth },
  createRole: { name: 'createRole', method: 'POST', path: '/api/role', access: auth },
  getRole: { name: 'getRole', method: 'GET', path: '/api/role/{name}', access: auth },
  addRolePermissions: { name: 'addRolePermissions', method: 'PUT', path: '/api/role/{name}/permissions', access: auth },
  removeRolePermissions: {
    name: 'removeRolePermissions',
    method: 'DELETE',
    path: '/api/role/{name}/permissions',
    access: auth,
  },
  deleteRole: { name: 'deleteRole', method: 'DELETE', path: '/api/role/{name}', access: auth },
  setRoleUsers: { name: 'setRoleUsers', method: 'PUT', path: '/api/role/{name}/users', access: auth },
  listGroups: { name: 'listGroups', method: 'GET', path: '/api/group', access: auth },
  createGroup: { name: 'createGroup', method: 'POST', path: '/api/group', access: auth },
  deleteGroup: { name: 'deleteGroup', method: 'DELETE', path: '/api/group/{name}', access: auth },
  addGroupUsers: { name: 'addGroupUsers', method: 'PUT', path: '/api/group/{name}/users', access: auth },
  removeGroupUser: { name: 'removeGroupUser', method: 'DELETE', path: '/api/group/{name}/user/{email}', access: auth },
  addGroupAgents: { name: 'addGroupAgents', method: 'PUT', path: '/api/group/{name}/agents', access: auth },
  removeGroupAgent: { name: 'removeGroupAgent', method: 'DELETE', path: '/api/group/{name}/agent/{id}', access: auth },
  addChildGroups: { name: 'addChildGroups', method: 'PUT', path: '/api/group/{name}/groups', access: auth },
  removeChildGroup: {
    name: 'removeChildGroup',
    method: 'DELETE',
    path: '/api/group/{name}/group/{child}',
    access: auth,
  },
  listApiKeys: { name: 'listApiKeys', method: 'GET', path: '/api/apikey', access: auth },
  createApiKey: { name: 'createApiKey', method: 'POST', path: '/api/apikey', access: auth },
  deleteApiKey: { name: 'deleteApiKey', method: 'DELETE', path: '/api/apikey/{uuid}', access: auth },
  getSettings: { name: 'getSettings', method: 'GET', path: '/api/settings', access: auth },
  saveSettings: { name: 'saveSettings', method: 'POST', path: '/api/settings', access: auth },
  publicSettings: { name: 'publicSettings', method: 'GET', path: '/api/settings/public', access: pub },
  getLicense: { name: 'getLicense', method: 'GET', path: '/api/license', access: auth },
  saveLicense: { name: 'saveLicense', method: 'POST', path: '/api/license', access: auth },
  getIngressTls: { name: 'getIngressTls', method: 'GET', path: '/api/ingress-tls', access: auth },
  saveIngressTls: { name: 'saveIngressTls', method: 'POST', path: '/api/ingress-tls', access: auth },
  getVersions: { name: 'getVersions', method: 'GET', path: '/api/versions', access: auth },
  getSigningKey: { name: 'getSigningKey', method: 'GET', path: '/api/signing-key', access: auth },
  saveVersion: { name: 'saveVersion', method: 'POST', path: '/api/version', access: auth },
  getDashboard: { name: 'getDashboard', method: 'GET', path: '/api/agent/dashboard', access: auth },
  listAgents: { name: 'listAgents', method: 'GET', path: '/api/agent', access: auth },
  getAgentConfig: { name: 'getAgentConfig', method: 'GET', path: '/api/agent/{id}/config', access: auth },
  saveAgentConfig: { name: 'saveAgentConfig', method: 'POST', path: '/api/agent/{id}/config', access: auth },
  deleteAgent: { name: 'deleteAgent', method: 'DELETE', path: '/api/agent/{id}', access: auth },
  listTunnels: { name: 'listTunnels', method: 'GET', path: '/api/tunneldefinition', access: auth },
  listAllTunnels: { name: 'listAllTunnels', method: 'GET', path: '/api/tunneldefinition/all', access: auth },
  createTunnel: { name: 'createTunnel', method: 'POST', path: '/api/tunneldefinition/{type}', access: auth },
  updateTunnel: { name: 'updateTunnel', method: 'PUT', path: '/api/tunneldefinition/{id}', access: auth },
  deleteTunnel: { name: 'deleteTunnel', method: 'DELETE', path: '/api/tunneldefinition/{id}', access: auth },
  setTunnelUsers: { name: 'setTunnelUsers', method: 'PUT', path: '/api/tunneldefinition/{id}/users', access: auth },
  setTunnelAgents: { name: 'setTunnelAgents', method: 'PUT', path: '/api/tunneldefinition/{id}/agents', access: auth },
  listRecordings: { name: 'listRecordings', method: 'GET', path: '/api/recording', access: auth },
  getRecordingDetail: { name: 'getRecordingDetail', method: 'GET', path: '/api/recording/{id}/data', access: auth },
  playbackAvailable: {
    name: 'playbackAvailable',
    method: 'GET',
    path: '/api/recording/{id}/playback_available',
    access: auth,
  },
  openRecording: { name: 'openRecording', method: 'POST', path: '/api/recording/{id}/ticket', access: auth },
  getRecordingCast: { name: 'getRecordingCast', method: 'GET', path: '/api/recording/{id}/cast', access: 'ticket' },
  getRecordingVideo: { name: 'getRecordingVideo', method: 'GET', path: '/api/recording/{id}/video', access: 'ticket' },
  getRecordingBundle: {
    name: 'getRecordingBundle',
    method: 'GET',
    path: '/api/recording/{id}/bundle',
    access: 'ticket',
  },
  seekRecording: { name: 'seekRecording', method: 'GET', path: '/api/recording/{id}/seek', access: auth },
  searchRecording: { name: 'searchRecording', method: 'GET', path: '/api/recording/{id}/search', access: auth },
  searchRecordings: { name: 'searchRecordings', method: 'GET', path: '/api/recording/search', access: auth },
  verifyRecording: { name: 'verifyRecording', method: 'GET', path: '/api/recording/{id}/verify', access: auth },
  terminateTunnel: { name: 'terminateTunnel', method: 'DELETE', path: '/api/tunnel/{id}', access: auth },
  placeRecordingHold: { name: 'placeRecordingHold', method: 'PUT', path: '/api/recording/{id}/hold', access: auth },
  liftRecordingHold: { name: 'liftRecordingHold', method: 'DELETE', path: '/api/recording/{id}/hold', access: auth },
  listOutbox: { name: 'listOutbox', method: 'GET', path: '/api/mail/outbox', access: auth },
  getOutboxMessage: { name: 'getOutboxMessage', method: 'GET', path: '/api/mail/outbox/{id}', access: auth },
  deleteOutboxMessage: { name: 'deleteOutboxMessage', method: 'DELETE', path: '/api/mail/outbox/{id}', access: auth },
} as const satisfies { [K in RouteName]?: MockRouteRef<K> };

/** A route the mock answers. */
export type MockRouteName = keyof typeof MOCK_ROUTES;
