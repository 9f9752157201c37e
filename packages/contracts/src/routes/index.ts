import type { RouteContract } from '../route.js';
import * as access from './access.js';
import * as agentInstall from './agent-install.js';
import * as agents from './agents.js';
import * as apikeys from './apikeys.js';
import * as audit from './audit.js';
import * as auth from './auth.js';
import * as fileTransfers from './file-transfers.js';
import * as groups from './groups.js';
import * as license from './license.js';
import * as mail from './mail.js';
import * as recordingHold from './recording-hold.js';
import * as recordings from './recordings.js';
import * as recordingSigning from './recording-signing.js';
import * as recordingSearch from './recording-search.js';
import * as sso from './sso.js';
import * as roles from './roles.js';
import * as settings from './settings.js';
import * as system from './system.js';
import * as tunnels from './tunnels.js';
import * as twoFactor from './two-factor.js';
import * as users from './users.js';

/** Every route of the API, by name. A route the server serves but this table lacks is a bug. */
export const routes = {
  login: auth.login,
  logout: auth.logout,
  me: auth.me,
  changePassword: auth.changePassword,
  security: auth.security,
  ssoProvider: auth.ssoProvider,
  health: system.health,
  liveness: system.liveness,
  readiness: system.readiness,
  metadata: system.metadata,
  navigationCounts: system.navigationCounts,
  auditList: audit.auditList,
  auditActions: audit.auditActions,
  auditExport: audit.auditExport,
  getAuditStreaming: audit.getAuditStreaming,
  saveAuditStreaming: audit.saveAuditStreaming,
  permissionCatalogue: system.permissionCatalogue,
  openapi: system.openapi,
  listUsers: users.listUsers,
  createUser: users.createUser,
  deleteUser: users.deleteUser,
  userRoles: users.userRoles,
  removeUserRole: users.removeUserRole,
  userReach: users.userReach,
  myAccess: access.myAccess,
  resetUserPassword: users.resetUserPassword,
  resetUserTwoFactor: users.resetUserTwoFactor,
  forgotPassword: users.forgotPassword,
  resetPassword: users.resetPassword,
  signUp: users.signUp,
  verifyEmail: users.verifyEmail,
  listSshKeys: users.listSshKeys,
  addSshKey: users.addSshKey,
  deleteSshKey: users.deleteSshKey,
  listRoles: roles.listRoles,
  createRole: roles.createRole,
  getRole: roles.getRole,
  addRolePermissions: roles.addRolePermissions,
  removeRolePermissions: roles.removeRolePermissions,
  deleteRole: roles.deleteRole,
  setRoleUsers: roles.setRoleUsers,
  listGroups: groups.listGroups,
  createGroup: groups.createGroup,
  deleteGroup: groups.deleteGroup,
  addGroupUsers: groups.addGroupUsers,
  removeGroupUser: groups.removeGroupUser,
  addGroupAgents: groups.addGroupAgents,
  removeGroupAgent: groups.removeGroupAgent,
  addChildGroups: groups.addChildGroups,
  removeChildGroup: groups.removeChildGroup,
  listApiKeys: apikeys.listApiKeys,
  createApiKey: apikeys.createApiKey,
  deleteApiKey: apikeys.deleteApiKey,
  getSettings: settings.getSettings,
  saveSettings: settings.saveSettings,
  publicSettings: settings.publicSettings,
  listOutbox: mail.listOutbox,
  getOutboxMessage: mail.getOutboxMessage,
  deleteOutboxMessage: mail.deleteOutboxMessage,
  listAgents: agents.listAgents,
  getAgentConfig: agents.getAgentConfig,
  saveAgentConfig: agents.saveAgentConfig,
  deleteAgent: agents.deleteAgent,
  registerAgent: agents.registerAgent,
  agentBundleManifest: agentInstall.agentBundleManifest,
  agentBundleDownload: agentInstall.agentBundleDownload,
  agentInstallScript: agentInstall.agentInstallScript,
  listTunnels: tunnels.listTunnels,
  listAllTunnels: tunnels.listAllTunnels,
  createTunnel: tunnels.createTunnel,
  updateTunnel: tunnels.updateTunnel,
  deleteTunnel: tunnels.deleteTunnel,
  setTunnelUsers: tunnels.setTunnelUsers,
  setTunnelAgents: tunnels.setTunnelAgents,
  listRecordings: recordings.listRecordings,
  getRecordingDetail: recordings.getRecordingDetail,
  playbackAvailable: recordings.playbackAvailable,
  openRecording: recordings.openRecording,
  getRecordingCast: recordings.getRecordingCast,
  getRecordingVideo: recordings.getRecordingVideo,
  getRecordingBundle: recordings.getRecordingBundle,
  seekRecording: recordings.seekRecording,
  searchRecording: recordings.searchRecording,
  verifyRecording: recordings.verifyRecording,
  uploadRecordingVideo: recordings.uploadRecordingVideo,
  getSigningKey: recordingSigning.getSigningKey,
  getDashboard: recordings.getDashboard,
  terminateTunnel: recordings.terminateTunnel,
  searchRecordings: recordingSearch.searchRecordings,
  placeRecordingHold: recordingHold.placeRecordingHold,
  liftRecordingHold: recordingHold.liftRecordingHold,
  listRecordingTransfers: fileTransfers.listRecordingTransfers,
  saveSecurity: auth.saveSecurity,
  authorize: auth.authorize,
  listPods: system.listPods,
  podLogs: system.podLogs,
  getSsoConfig: sso.getSsoConfig,
  saveSsoConfig: sso.saveSsoConfig,
  testLdap: sso.testLdap,
  ldapLogin: sso.ldapLogin,
  testOidc: sso.testOidc,
  startSso: sso.startSso,
  oidcCallback: sso.oidcCallback,
  samlAcs: sso.samlAcs,
  samlMetadata: sso.samlMetadata,
  ssoToken: sso.ssoToken,
  ssoSecondFactor: sso.ssoSecondFactor,
  getLicense: license.getLicense,
  saveLicense: license.saveLicense,
  getIngressTls: license.getIngressTls,
  saveIngressTls: license.saveIngressTls,
  getVersions: license.getVersions,
  saveVersion: license.saveVersion,
  twoFactorStatus: twoFactor.twoFactorStatus,
  startTotp: twoFactor.startTotp,
  confirmTotp: twoFactor.confirmTotp,
  removeTotp: twoFactor.removeTotp,
  newRecoveryCodes: twoFactor.newRecoveryCodes,
  passkeyRegistrationOptions: twoFactor.passkeyRegistrationOptions,
  addPasskey: twoFactor.addPasskey,
  removePasskey: twoFactor.removePasskey,
  secondFactorPasskeyOptions: twoFactor.secondFactorPasskeyOptions,
  secondFactor: twoFactor.secondFactor,
  passkeySignInOptions: twoFactor.passkeySignInOptions,
  passkeySignIn: twoFactor.passkeySignIn,
  setRoleTwoFactor: roles.setRoleTwoFactor,
} as const satisfies Record<string, RouteContract>;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

/** The route table as a list, for binding, the OpenAPI document and the authorization matrix. */
export const routeList: readonly RouteContract[] = Object.values(routes);

export * from './access.js';
export * from './agent-install.js';
export * from './agents.js';
export * from './apikeys.js';
export * from './audit.js';
export * from './auth.js';
export * from './common.js';
export * from './file-transfers.js';
export * from './groups.js';
export * from './license.js';
export * from './mail.js';
export * from './recording-hold.js';
export * from './recordings.js';
export * from './recording-search.js';
export * from './recording-signing.js';
export * from './roles.js';
export * from './settings.js';
export * from './sso.js';
export * from './system.js';
export * from './tunnels.js';
export * from './two-factor.js';
export * from './two-factor-parts.js';
export * from './users.js';
