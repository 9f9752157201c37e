import path from 'node:path';
import { CLUSTER_EVENTS } from '@gatehouse/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { HTTP_CONNECTION_DEFAULTS, limitConnections } from './http/connection-limits.js';
import { BurstReport } from './lib/burst-report.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { lockDataDir } from './db/data-dir-lock.js';
import { secureDataDir } from './lib/data-dir.js';
import { migrate } from './db/migrate.js';
import { LogBook, createLogger } from './lib/logger.js';
import { StatusService } from './modules/status/status.service.js';
import { loadSecretKey } from './lib/secret-box.js';
import type { FirstAdminOutcome } from './modules/users/users.service.js';
import { SshGateway } from './gateway/ssh-gateway.js';
import { HttpsListener } from './modules/tls/https-listener.js';
import { attachConsoleSockets, permissionRoom } from './realtime/console-sockets.js';
import { REVOKED_ACTION } from './realtime/live-rights.js';
import { attachTunnelEndpoint } from './realtime/tunnel-endpoint.js';
import { attachDesktopEndpoint } from './desktop/desktop-endpoint.js';
import { followInstances } from './cluster/take-over.js';
import { type RelayedDesktops, attachRelayEndpoint, defaultAdvertiseUrl } from './cluster/relay-endpoint.js';
import { type DrainOutcome, drain } from './lifecycle/drain.js';
import { type Services, createServices } from './services.js';

/** A running server and how to stop it. */
export interface RunningServer {
  app: FastifyInstance;
  url: string;
  services: Services;
  firstAdmin: FirstAdminOutcome;
  /** The port of the SSH gateway. */
  sshPort: number;
  /** HTTPS with the ingress certificate, when GATEHOUSE_TLS_PORT is set. */
  https: HttpsListener | undefined;
  /** socket.io for open consoles. */
  io: Awaited<ReturnType<typeof attachConsoleSockets>>['io'];
  /**
   * Graceful shutdown's first half (SIGTERM, lifecycle/drain.ts): not ready at once, no new
   * sessions, live ones go on for `seconds` (or until `hurry` aborts), then the rest end recorded.
   * close() comes after.
   */
  drain(seconds: number, hurry?: AbortSignal): Promise<DrainOutcome>;
  close(): Promise<void>;
}

/** Options beyond the configuration, for tests. */
export interface StartOptions {
  /** An already open database (tests pass an in-memory PGlite or an isolated schema). */
  database?: Database;
  /** Where the log lines go (tests read them); process.stdout by default. */
  logOut?: { write(chunk: string): unknown };
  /**
   * Tests only (no setting reaches it): the recovery sweep's period (default 30 s) and how long an
   * ended session's unfinished video waits before the sweep signs it as cut (default 10 min).
   */
  sweep?: { everyMs?: number; videoCutGraceMs?: number };
}

/** Opens the database and its migrations, prepares the first administrator, and listens. */
export async function prepareDatabase(config: Config, options: StartOptions = {}) {
  let releaseLock: (() => void) | undefined;
  let database = options.database;
  // Owner-only before anything is read or written there, and again once PGlite made its files.
  secureDataDir(config.dataDir);
  if (!database) {
    if (!config.databaseUrl) releaseLock = lockDataDir(config.dataDir);
    try {
      database = await openDatabase({
        url: config.databaseUrl,
        dataDir: path.join(config.dataDir, 'pglite'),
        waitMs: config.databaseWaitSeconds * 1000,
        onWait: (attempt, error) =>
          process.stderr.write(
            `Waiting for the database named by DATABASE_URL (attempt ${attempt}, up to ${config.databaseWaitSeconds} s): ${(error as Error).message}\n`,
          ),
      });
    } catch (error) {
      releaseLock?.();
      throw error;
    }
  }
  await migrate(database);
  if (!options.database && !config.databaseUrl) secureDataDir(config.dataDir);
  const logBook = new LogBook();
  const services = createServices(database, {
    loginRatePerMinute: config.loginRateLimitPerMinute,
    dataDir: config.dataDir,
    secretKey: loadSecretKey(config.secretKey, config.dataDir),
    defaultPublicUrl: config.publicUrl ?? `http://${config.host}:${config.port}`,
    log: createLogger(config.logLevel, logBook, options.logOut),
    logBook,
    devLicenses: config.devLicenses,
    httpsPort: config.tlsPort,
    databaseOutageGraceMs: config.databaseOutageGraceSeconds * 1000,
    recordingKey: config.recordingKey,
    objectStorage: config.objectStorage,
    clusterSecret: config.clusterSecret,
  });
  database.health.useLog(services.log.child({ component: 'database' }));
  await services.usersService.ensureBuiltinRoles();
  return { database, services, releaseLock };
}

/**
 * Loads the key that signs recordings (listing it among the keys this installation used) before
 * anything is signed, and logs its fingerprint; warns when the key is kept with the data.
 */
async function announceSigningKey(services: Services): Promise<void> {
  const keys = await services.gatewayKeys.keys();
  const log = services.log.child({ component: 'recording-storage' });
  log.info(
    { fingerprint: keys.signingFingerprint, source: keys.signingSource },
    `recordings are signed with the key ${keys.signingFingerprint}`,
  );
  if (keys.signingKeyWithData)
    log.warn(
      { fingerprint: keys.signingFingerprint, source: keys.signingSource },
      'the key that signs recordings is kept with the data folder: whoever can write the folder can re-sign ' +
        'recordings. Give one kept elsewhere with GATEHOUSE_RECORDING_KEY_FILE or GATEHOUSE_RECORDING_KEY (README)',
    );
}

/** Starts the whole server on the configured host and port. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const { database, services, releaseLock } = await prepareDatabase(config, options);
  await announceSigningKey(services);
  const firstAdmin = await services.usersService.ensureFirstAdmin(config.adminEmail, config.adminPassword);
  const app = await buildApp(config, services);
  // Deadlines and caps on sockets before anything else hears of them (README, "Limits").
  const httpLimits = config.httpConnections ?? HTTP_CONNECTION_DEFAULTS;
  const httpReport = new BurstReport({
    listener: 'http',
    action: 'http.connections.refused',
    log: services.log,
    audit: (entry) => services.repositories.audit.append(entry),
  });
  limitConnections(app.server, httpLimits, httpReport);
  services.hub.attach(app.server);
  // Other instances relay streams and config pushes for the agents held here (ADR 0007), and
  // watchers of the browser desktops running here (set once the desktop endpoint is attached).
  const relayedDesktops: { current?: RelayedDesktops } = {};
  const detachRelay = attachRelayEndpoint(app.server, {
    desktops: () => relayedDesktops.current,
    hub: services.hub,
    secret: services.clusterSecret,
    db: database.db,
    self: () => services.instances.id,
    log: services.log.child({ component: 'cluster-relay' }),
  });
  // Agents coming and going are state changes too: each leaves an audit entry.
  services.hub.on(
    'connection',
    (event: { agentId: string; hostname: string | null; source: string | null; connected: boolean }) => {
      services.repositories.audit
        .append({
          actor: event.hostname ? `agent:${event.hostname}` : null,
          action: event.connected ? 'agent.connected' : 'agent.disconnected',
          target: event.agentId,
          outcome: 'success',
          source: event.source,
        })
        .catch((err: unknown) => services.log.warn({ err }, 'agent audit entry not written'));
    },
  );
  // An agent that reports another host name than the one it enrolled with: ignored, and audited.
  services.hub.on(
    'hostname-ignored',
    (event: { agentId: string; hostname: string; reported: string; source: string | null }) => {
      services.repositories.audit
        .append({
          actor: `agent:${event.hostname}`,
          action: 'agent.hostname_ignored',
          target: event.agentId,
          outcome: 'denied',
          source: event.source,
          detail: { reported: event.reported },
        })
        .catch((err: unknown) => services.log.warn({ err }, 'agent audit entry not written'));
    },
  );
  // An agent socket closed for flooding: one audit entry with what it sent, however much it was.
  services.hub.on(
    'flood',
    (event: {
      agentId: string;
      hostname: string;
      source: string | null;
      kind: string;
      reason: string;
      counts: object;
    }) => {
      services.repositories.audit
        .append({
          actor: `agent:${event.hostname}`,
          action: 'agent.flood',
          target: event.agentId,
          outcome: 'denied',
          source: event.source,
          detail: { why: event.reason, kind: event.kind, counts: event.counts },
        })
        .catch((err: unknown) => services.log.warn({ err }, 'agent audit entry not written'));
    },
  );
  // Live rights: an agent socket closed because its agent was deleted or re-keyed is audited.
  services.hub.on('revoked', (event: { agentId: string; hostname: string; source: string | null; reason: string }) => {
    services.repositories.audit
      .append({
        actor: `agent:${event.hostname}`,
        action: REVOKED_ACTION,
        target: event.agentId,
        outcome: 'denied',
        source: event.source,
        detail: { connection: 'agent socket', why: event.reason },
      })
      .catch((err: unknown) => services.log.warn({ err }, 'agent audit entry not written'));
  });
  const tunnels = attachTunnelEndpoint(app.server, services, services.log);
  // Browser desktops (issue 18): drained and ended with the tunnels.
  const desktops = attachDesktopEndpoint(app.server, services, services.log.child({ component: 'desktop' }));
  relayedDesktops.current = desktops.relayed;
  const relayed = {
    get open() {
      return tunnels.open + desktops.open;
    },
    stopTaking() {
      tunnels.stopTaking();
      desktops.stopTaking();
    },
    async endAll(reason: string) {
      await Promise.all([tunnels.endAll(reason), desktops.endAll(reason)]);
    },
  };
  const sockets = await attachConsoleSockets(app.server, {
    auth: services.auth,
    hub: services.hub,
    recordings: services.recordings,
    sessions: services.sessions,
    log: services.log,
    redisUrl: config.redisUrl,
    rights: services.liveRights,
    policy: services.policy,
    audit: services.repositories.audit,
    recordingRows: services.repositories.recordings,
  });
  // Every live connection is re-checked within a second of a change to rights, on any instance.
  await services.liveRights.start();
  // This instance joins server_instances; instances known gone (with the embedded database every
  // earlier one: one process owns the folder) are taken over: their recordings are finalised now,
  // their agents read 'reconnecting'. Later, any instance silent for 8 s is taken over the same way.
  if (options.sweep?.videoCutGraceMs !== undefined) services.videos.cutGraceMs = options.sweep.videoCutGraceMs;
  const takeOver = followInstances(services, options.sweep?.everyMs);
  await services.instances.start(database.kind === 'pglite');
  // With the embedded database nothing else can be writing any open recording; with PostgreSQL,
  // recordings of no known instance are finalised once silent for half a minute.
  await takeOver.recover(database.kind === 'pglite' ? 0 : undefined);
  // Recordings that ended before the search index existed (or unseen by a dead instance) are indexed in the background.
  services.textIndexer.start();
  // Audit entries stream to the SIEM sinks an administrator configured (one instance at a time per sink).
  services.auditStreamer.start();
  // Recordings past the retention setting go at start and every hour.
  const retire = () =>
    void services.retention.sweep().catch((err: unknown) => services.log.warn({ err }, 'retention sweep failed'));
  retire();
  const retention = setInterval(retire, 3_600_000);
  retention.unref();
  const gateway = new SshGateway(services, services.log.child({ component: 'gateway' }));
  let sshPort: number;
  try {
    sshPort = await gateway.listen(config.sshPort, config.sshHost);
  } catch (error) {
    takeOver.stop();
    services.hub.close();
    await services.instances.close();
    services.liveRights.close();
    await sockets.close();
    await app.close();
    if (!options.database) await database.close();
    releaseLock?.();
    throw error;
  }
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    takeOver.stop();
    services.hub.close();
    await services.instances.close();
    services.liveRights.close();
    await sockets.close();
    await app.close();
    if (!options.database) await database.close();
    releaseLock?.();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  await services.instances.advertise(config.advertiseUrl ?? defaultAdvertiseUrl(config.host, port));
  const https =
    config.tlsPort === undefined
      ? undefined
      : new HttpsListener(app.server, services.ingressTls, config.tlsPort, config.host, services.log, (server) =>
          limitConnections(server, httpLimits, httpReport, { tls: true }),
        );
  if (https) services.ingressTls.onSaved = () => https.refresh();
  await https?.start();
  services.status.gateway = { host: config.sshHost, port: sshPort };
  // Readiness (GET /api/health/ready): the SSH listener, and Redis when configured.
  services.readiness.ssh = () => gateway.listening;
  services.readiness.redis = sockets.redisReady;
  // The cluster status socket (spec §4): holders of manage-kubernetes hear when a component's health changes.
  let lastHealth = '';
  const watchHealth = setInterval(() => {
    void services.status
      .pods()
      .then((pods) => {
        const health = pods.map((p) => `${p.name}:${p.status}`).join(',');
        if (health === lastHealth) return;
        lastHealth = health;
        sockets.io
          .to(permissionRoom('manage-kubernetes'))
          .emit(CLUSTER_EVENTS.statefulsetUpdate, { pods, ...StatusService.summary(pods) });
      })
      .catch((err: unknown) => services.log.warn({ err }, 'health check failed'));
  }, 10_000);
  watchHealth.unref();
  const purge = setInterval(() => {
    services.repositories.tokens.purgeExpired().catch((err: unknown) => app.log.warn({ err }, 'token purge failed'));
    services.repositories.ssoFlows
      .purgeExpired()
      .catch((err: unknown) => app.log.warn({ err }, 'single sign-on purge failed'));
  }, 3_600_000);
  purge.unref();
  return {
    app,
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    services,
    firstAdmin,
    io: sockets.io,
    sshPort,
    https,
    drain: (seconds, hurry) =>
      drain(
        { readiness: services.readiness, gateway, tunnels: relayed, agents: services.hub, log: services.log },
        seconds,
        hurry,
      ),
    async close() {
      services.readiness.drain();
      clearInterval(watchHealth);
      clearInterval(retention);
      await https?.close();
      clearInterval(purge);
      takeOver.stop();
      await gateway.close();
      httpReport.close();
      await relayed.endAll('the Gatehouse server is stopping');
      tunnels.detach();
      desktops.detach();
      detachRelay();
      services.recordings.close();
      services.textIndexer.close();
      await services.auditStreamer.close();
      services.hub.close();
      // Marked stopped: its agents read 'reconnecting' and nothing it held waits for a timeout.
      await services.instances.close();
      services.liveRights.close();
      await sockets.close();
      await app.close();
      if (!options.database) await database.close();
      releaseLock?.();
    },
  };
}
