import { AGENT_CREDENTIAL_HEADER, AGENT_ID_HEADER } from '@gatehouse/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Gatekeeper } from './http/bind-routes.js';
import type { Database } from './db/client.js';
import { SecretBox } from './lib/secret-box.js';
import { AgentsRepository } from './modules/agents/agents.repository.js';
import { AgentsService } from './modules/agents/agents.service.js';
import { ApiKeysRepository } from './modules/apikeys/apikeys.repository.js';
import { ApiKeysService } from './modules/apikeys/apikeys.service.js';
import { AuditListRepository } from './modules/audit/audit-list.repository.js';
import { AuditRepository } from './modules/audit/audit.repository.js';
import { AuditService } from './modules/audit/audit.service.js';
import { AuditStreamer } from './modules/audit/streaming/audit-streamer.js';
import { SinksRepository } from './modules/audit/streaming/sinks.repository.js';
import { StreamingSettingsStore } from './modules/audit/streaming/streaming-settings.js';
import { StreamingService } from './modules/audit/streaming/streaming.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { MediaTickets } from './modules/auth/media-tickets.js';
import { LoginGuardRepository } from './modules/auth/login-guard.repository.js';
import { TokensRepository } from './modules/auth/tokens.repository.js';
import { GroupsRepository } from './modules/groups/groups.repository.js';
import { GroupsService } from './modules/groups/groups.service.js';
import { LicenseService } from './modules/license/license.service.js';
import { IngressTlsService } from './modules/tls/ingress-tls.service.js';
import { VersionsService } from './modules/versions/versions.service.js';
import type { LogBook } from './lib/logger.js';
import { LegalHoldRepository } from './modules/recordings/legal-hold.repository.js';
import { LegalHoldService } from './modules/recordings/legal-hold.service.js';
import { RecordingRetention } from './modules/recordings/retention.js';
import { KubernetesClient, type KubernetesTarget, kubernetesTarget } from './modules/status/kubernetes.js';
import { StatusService } from './modules/status/status.service.js';
import { LdapService } from './modules/sso/ldap.service.js';
import { ExternalAccounts } from './modules/sso/external-accounts.js';
import { ExternalGrantsRepository } from './modules/sso/external-grants.repository.js';
import { OidcService } from './modules/sso/oidc.service.js';
import { VideoService } from './recordings/video.service.js';
import { SamlService } from './modules/sso/saml.service.js';
import { SsoConfigService } from './modules/sso/sso-config.service.js';
import { SsoFlowService } from './modules/sso/sso-flow.service.js';
import { SsoFlowsRepository } from './modules/sso/sso-flows.repository.js';
import { MailService } from './modules/mail/mail.service.js';
import { OutboxRepository } from './modules/mail/outbox.repository.js';
import { AccessPolicy } from './modules/policy/access-policy.js';
import { RolesAdminRepository } from './modules/roles/roles-admin.repository.js';
import { RolesRepository } from './modules/roles/roles.repository.js';
import { RolesService } from './modules/roles/roles.service.js';
import { SecurityService } from './modules/settings/security.service.js';
import { SettingsRepository } from './modules/settings/settings.repository.js';
import { SettingsService } from './modules/settings/settings.service.js';
import { SshKeysRepository } from './modules/ssh-keys/ssh-keys.repository.js';
import { SshKeysService } from './modules/ssh-keys/ssh-keys.service.js';
import { TunnelsRepository } from './modules/tunnels/tunnels.repository.js';
import { TunnelsService } from './modules/tunnels/tunnels.service.js';
import { PasswordResetService } from './modules/users/password-reset.service.js';
import { EmailVerificationsRepository } from './modules/users/email-verifications.repository.js';
import { ResetTokensRepository } from './modules/users/reset-tokens.repository.js';
import { UsersAdminRepository } from './modules/users/users-admin.repository.js';
import { UsersAdminService } from './modules/users/users-admin.service.js';
import { UsersRepository } from './modules/users/users.repository.js';
import { UsersService } from './modules/users/users.service.js';
import { AgentHub } from './realtime/agent-hub.js';
import { CaptureStatuses } from './recordings/capture-status.js';
import { AGENT_CONNECTS_PER_MINUTE } from './realtime/agent-limits.js';
import { InstanceRegistry } from './cluster/instance-registry.js';
import { InstancesRepository } from './cluster/instances.repository.js';
import { ClusterSecret } from './cluster/cluster-secret.js';
import { RelayClient } from './cluster/relay-client.js';
import { LiveRights } from './realtime/live-rights.js';
import { GatewayKeys } from './gateway/gateway-keys.js';
import { RecordingsRepository } from './recordings/recordings.repository.js';
import { RecordingsService } from './recordings/recordings.service.js';
import { type ConfiguredRecordingKey, SigningKeysRepository } from './recordings/signing-keys.js';
import { DashboardService } from './modules/recordings/dashboard.service.js';
import { SessionsService } from './modules/recordings/sessions.service.js';
import { RecordingSearchService } from './modules/recordings/recording-search.service.js';
import { RecordingTextRepository } from './recordings/recording-text.repository.js';
import { TextIndexer } from './recordings/text-index.js';
import { type ObjectStorageConfig, ObjectStore } from './recordings/object-store.js';
import { RecordingObjects } from './recordings/recording-objects.js';
import { TransfersService } from './modules/recordings/transfers.service.js';
import { FileTransfersRepository } from './recordings/file-transfers.repository.js';
import { Readiness } from './lifecycle/readiness.js';
import { TwoFactorRepository } from './modules/two-factor/two-factor.repository.js';
import { TwoFactorService } from './modules/two-factor/two-factor.service.js';
import { WebAuthn } from './modules/two-factor/webauthn.js';

/** The repositories and services of one server, wired over one database. */
export type Services = ReturnType<typeof createServices>;

/** What the services need beyond the database. */
export interface ServiceOptions {
  loginRatePerMinute: number;
  dataDir: string;
  secretKey: Buffer;
  defaultPublicUrl: string;
  log: FastifyBaseLogger;
  /** How long live sessions go on while the database is away (rights cannot be withdrawn then). */
  databaseOutageGraceMs?: number;
  /** Accept development-signed licences. */
  devLicenses?: boolean;
  /** Where HTTPS is served, for the certificate's description. */
  httpsPort?: number;
  /** Recent log lines by component, for the status screen. */
  logBook?: LogBook;
  /** The Kubernetes API (null: none); by default found from the environment. */
  kubernetes?: KubernetesTarget | null;
  /** The key that signs recordings, when given (otherwise one sealed in the database). */
  recordingKey?: ConfiguredRecordingKey;
  /** S3-compatible object storage for recordings and videos; unset keeps them in the data folder. */
  objectStorage?: ObjectStorageConfig;
  /** The secret signing relays between instances (GATEHOUSE_CLUSTER_SECRET); unset: sealed in the database. */
  clusterSecret?: string;
}

/** Wires repositories and services; the HTTP layer, the demo seeder and tests all use this. */
export function createServices(database: Database, options: ServiceOptions) {
  const { db } = database;
  const users = new UsersRepository(db);
  const usersAdmin = new UsersAdminRepository(db);
  const roles = new RolesRepository(db);
  const rolesAdmin = new RolesAdminRepository(db);
  const groups = new GroupsRepository(db);
  const settingsRepository = new SettingsRepository(db);
  const audit = new AuditRepository(db, database.health);
  const tokens = new TokensRepository(db);
  const apiKeys = new ApiKeysRepository(db);
  const guard = new LoginGuardRepository(db);
  const agents = new AgentsRepository(db);
  const tunnels = new TunnelsRepository(db);
  const box = new SecretBox(options.secretKey);
  // Live connections re-checked whenever rights change, on every instance (realtime/live-rights.ts).
  const liveRights = new LiveRights(
    database,
    options.log.child({ component: 'live-rights' }),
    options.databaseOutageGraceMs,
  );
  // This instance's row in server_instances: agents and live recordings name it (issue 15).
  const instances = new InstanceRegistry(new InstancesRepository(db), options.log.child({ component: 'cluster' }));
  const hub = new AgentHub(
    agents,
    options.log.child({ component: 'agent-hub' }),
    () => instances.id,
    liveRights,
    async (id) => (await guard.hit(`agent-connect:${id}`, 60)).count <= AGENT_CONNECTS_PER_MINUTE,
  );
  // Streams and config pushes for agents held by another instance go through it (ADR 0007).
  const clusterSecret = new ClusterSecret(settingsRepository, box, options.clusterSecret);
  hub.relay = new RelayClient(clusterSecret, () => instances.id, options.log.child({ component: 'cluster-relay' }));
  const security = new SecurityService(settingsRepository, (message) =>
    options.log.child({ component: 'api' }).warn(message),
  );
  const settings = new SettingsService(settingsRepository, box);
  const auth = new AuthService(users, tokens, guard, security, options.loginRatePerMinute, () => ssoConfig.authType());
  auth.onRevoked = (tokenHash) => liveRights.tokenRevoked(tokenHash);
  // Second factors (issue 20): codes are checked through the same limits and lockout as passwords.
  const twoFactorRepository = new TwoFactorRepository(db);
  const twoFactor = new TwoFactorService(twoFactorRepository, box, new WebAuthn(twoFactorRepository), {
    guard: (email, source) => auth.guardCurrentPassword(email, source),
    wrong: (email, text, status) => auth.wrongCurrentPassword(email, text, status),
    clear: (email) => guard.clearFailures(email),
  });
  auth.twoFactor = twoFactor;
  const usersService = new UsersService(users, roles);
  const mail = new MailService(settings, new OutboxRepository(db), box, options.log.child({ component: 'api' }));
  const gatewayKeys = new GatewayKeys(
    settingsRepository,
    box,
    options.dataDir,
    new SigningKeysRepository(db),
    options.recordingKey,
  );
  const recordingsRepository = new RecordingsRepository(db);
  const fileTransfers = new FileTransfersRepository(db);
  const sshKeys = new SshKeysRepository(db);
  const recordings = new RecordingsService(
    recordingsRepository,
    options.dataDir,
    async () => (await gatewayKeys.keys()).signingKey,
    options.log.child({ component: 'recording-storage' }),
  );
  recordings.useHealth(database.health);
  if (database.kind === 'pglite') recordings.useEmbeddedDatabase();
  recordings.instanceId = () => instances.id;
  recordings.audit = (entry) => audit.append(entry);
  // Capture status of rdp sessions through tunnels (issue 18): agents report it, tunnels apply the policy.
  const captureStatuses = new CaptureStatuses(db, options.log.child({ component: 'capture-status' }), (entry) =>
    audit.append(entry),
  );
  hub.capture = captureStatuses;
  const recordingObjects = options.objectStorage
    ? new RecordingObjects(
        new ObjectStore(options.objectStorage),
        recordingsRepository,
        options.dataDir,
        options.log.child({ component: 'recording-storage' }),
      )
    : undefined;
  recordings.objects = recordingObjects;
  // RDP video pieces, digested and chained as they are committed, signed when final (issue 18).
  const videos = new VideoService(database, recordingObjects, async () => (await gatewayKeys.keys()).signingKey);
  recordings.videos = videos;
  const mediaTickets = new MediaTickets(options.secretKey);
  const ssoConfig = new SsoConfigService(
    settingsRepository,
    box,
    async () => (await settings.get()).public_url || options.defaultPublicUrl,
  );
  const externalAccounts = new ExternalAccounts(users, new ExternalGrantsRepository(db), () => ssoConfig.adminGroups());
  const oidc = new OidcService(ssoConfig);
  const saml = new SamlService(ssoConfig, options.log.child({ component: 'api' }));
  const ssoFlowsRepository = new SsoFlowsRepository(db);
  const kubeTarget = options.kubernetes === undefined ? kubernetesTarget(process.env) : options.kubernetes;
  const kube = kubeTarget ? new KubernetesClient(kubeTarget) : undefined;
  const license = new LicenseService(settingsRepository, agents, options.devLicenses ?? false);
  const policy = new AccessPolicy({
    groups,
    tunnels,
    agents,
    users,
    audit,
    log: options.log.child({ component: 'policy' }),
  });
  const sessions = new SessionsService(recordingsRepository, recordings, policy);
  // The audit screen, its export and streaming to a SIEM (issue 20): delivery state in SQL.
  const auditList = new AuditListRepository(db);
  const auditSinks = new SinksRepository(db);
  const streamingSettings = new StreamingSettingsStore(settingsRepository, box);
  // Search across recordings (issue 16): each recording's text is indexed once it has ended.
  const recordingText = new RecordingTextRepository(database);
  const textIndexer = new TextIndexer(recordingText, options.log.child({ component: 'recording-search' }));
  if (recordingObjects) textIndexer.localFile = (id) => recordingObjects.local(id);
  recordings.on('ended', (id: string) => textIndexer.ended(id));
  const gatekeeper: Gatekeeper = {
    auth,
    limitFor: (route) => security.limitFor(route),
    consumeOneShot: (tokenHash) => tokens.consumeOneShot(tokenHash),
    async agent(request) {
      const agent = await policy.agentFromCredential(
        request.headers[AGENT_ID_HEADER],
        request.headers[AGENT_CREDENTIAL_HEADER],
      );
      return agent ? { id: agent.id, hostname: agent.hostname } : undefined;
    },
    ticket: (ticket, objectId) => mediaTickets.check(ticket, objectId),
  };
  return {
    database,
    clusterSecret,
    /** Readiness and draining (GET /api/health/ready; SIGTERM, docs/deploy/server.md). */
    readiness: new Readiness(database),
    log: options.log,
    mediaTickets,
    gatekeeper,
    /** Pages, actions and the streamed export of the audit trail. */
    auditTrail: new AuditService(auditList),
    /** The SIEM streaming settings and each sink's delivery status. */
    streaming: new StreamingService(streamingSettings, auditSinks, auditList),
    /** Delivers the trail to syslog and the webhook (started by server.ts). */
    auditStreamer: new AuditStreamer(
      streamingSettings,
      auditSinks,
      auditList,
      options.log.child({ component: 'audit-streaming' }),
    ),
    policy,
    license,
    ssoConfig,
    ldap: new LdapService(ssoConfig, auth, externalAccounts, options.log.child({ component: 'api' })),
    oidc,
    saml,
    ssoFlows: new SsoFlowService(ssoConfig, ssoFlowsRepository, oidc, saml, externalAccounts, auth, users),
    ingressTls: new IngressTlsService(settingsRepository, box, options.httpsPort),
    versions: new VersionsService(settingsRepository, agents, kube),
    retention: new RecordingRetention(
      db,
      settings,
      audit,
      options.log.child({ component: 'recording-storage' }),
      recordingObjects,
    ),
    status: new StatusService(database, hub, options.dataDir, options.logBook, kube),
    hub,
    captureStatuses,
    instances,
    liveRights,
    box,
    gatewayKeys,
    recordings,
    recordingObjects,
    videos,
    repositories: {
      recordings: recordingsRepository,
      fileTransfers,
      sshKeys,
      guard,
      agents,
      tunnels,
      users,
      usersAdmin,
      roles,
      rolesAdmin,
      groups,
      settings: settingsRepository,
      audit,
      tokens,
      apiKeys,
      ssoFlows: ssoFlowsRepository,
      twoFactor: twoFactorRepository,
    },
    security,
    settings,
    auth,
    twoFactor,
    mail,
    usersService,
    usersAdmin: new UsersAdminService(users, usersAdmin, rolesAdmin, groups, usersService, policy, {
      repo: twoFactorRepository,
      revoked: (tokenHash) => liveRights.tokenRevoked(tokenHash),
    }),
    passwords: new PasswordResetService({
      users,
      usersService,
      resetTokens: new ResetTokensRepository(db),
      grants: policy.grants,
      verifications: new EmailVerificationsRepository(db),
      tokens,
      guard,
      settings,
      mail,
      auth,
      defaultPublicUrl: options.defaultPublicUrl,
      ratePerMinute: options.loginRatePerMinute,
      log: options.log,
    }),
    roles: new RolesService(rolesAdmin, usersAdmin, policy),
    groups: new GroupsService(groups, usersAdmin, policy),
    apiKeys: new ApiKeysService(apiKeys),
    sshKeys: new SshKeysService(sshKeys),
    agents: new AgentsService(agents, apiKeys, guard, hub, options.loginRatePerMinute, license),
    tunnels: new TunnelsService(tunnels, agents, groups, usersAdmin, box, policy),
    sessions,
    textIndexer,
    recordingSearch: new RecordingSearchService(recordingText, policy),
    transfers: new TransfersService(sessions, fileTransfers),
    legalHolds: new LegalHoldService(recordingsRepository, new LegalHoldRepository(db), policy),
    dashboard: new DashboardService(db, recordingsRepository, agents, policy),
  };
}
