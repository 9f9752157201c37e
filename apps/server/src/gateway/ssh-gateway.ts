// Before ssh2 loads anywhere: its packets' padding from a pool (ssh2-padding.ts).
import './ssh2-padding.js';
import type { FastifyBaseLogger } from 'fastify';
import ssh2 from 'ssh2';
import { isDatabaseUnavailable } from '../db/health.js';
import { detach, logFailure } from '../lib/detach.js';
import type { Services } from '../services.js';
import type { UserRow } from '../modules/users/users.repository.js';
import { type AuthOutcome, CODE_PROMPT, GatewayAuth, parseGatewayUsername } from './gateway-auth.js';
import { GatewayConnection } from './gateway-connection.js';
import { IdleSweep } from './idle-sweep.js';
import { BurstReport } from '../lib/burst-report.js';
import { LoginLimits } from './login-limits.js';
import { SshLoginGuard } from './ssh-login-guard.js';
import { nativeCrypto, serverAlgorithms } from './ssh-algorithms.js';

/** What an SSH client reads when its login cannot be checked because the database is away. */
export const GATEWAY_DATABASE_AWAY =
  'Gatehouse cannot check your login right now: its database is not reachable. Try again in a few seconds.';

/** What a client still logging in reads when the instance begins draining. */
export const GATEWAY_DRAINING =
  'This Gatehouse gateway instance is shutting down and takes no new sessions. Connect again in a few seconds.';

/**
 * The SSH listener users reach with unchanged OpenSSH clients: `ssh -p 2222 alice@web-01@gateway`.
 * It authenticates the Gatehouse user, then each connection is handled by a GatewayConnection.
 */
export class SshGateway {
  private server: ssh2.Server | undefined;
  private readonly connections = new Set<GatewayConnection>();
  private idle: IdleSweep | undefined;
  private guard: SshLoginGuard | undefined;
  private limits: LoginLimits | undefined;
  private report: BurstReport | undefined;
  private draining = false;

  constructor(
    private readonly services: Services,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts listening; answers the port (useful with port 0). */
  async listen(port: number, host: string): Promise<number> {
    const { hostKey } = await this.services.gatewayKeys.keys();
    const s = this.services;
    const auth = new GatewayAuth(s.repositories.users, s.repositories.sshKeys, s.auth, (local) =>
      s.repositories.usersAdmin.findByLocalPart(local),
    );
    const idle = new IdleSweep(s.settings, () => this.connections, this.log);
    this.idle = idle;
    // Connections not yet authenticated: deadlines, caps per address and in total (login-limits.ts).
    const limits = new LoginLimits(s.settings, this.log);
    this.limits = limits;
    await limits.read().catch((err: unknown) => this.log.warn({ err }, 'SSH login limits not read; defaults apply'));
    const report = new BurstReport({
      listener: 'ssh',
      action: 'gateway.connections.refused',
      log: this.log,
      audit: (entry) => s.repositories.audit.append(entry),
    });
    this.report = report;
    // Which crypto this process runs (ADR 0003): operators see why a gateway is slower than another.
    this.log.info({ nativeCrypto }, nativeCrypto ? 'SSH crypto: ssh2 native add-on' : 'SSH crypto: pure JavaScript');
    const options = { hostKeys: [hostKey], ident: 'Gatehouse', algorithms: serverAlgorithms() };
    this.server = new ssh2.Server(options, (client, info) => {
      if (!guard.attach(client, info)) return void client.end();
      const connection = new GatewayConnection(client, info.ip, s, this.log, (minutes) => idle.update(minutes));
      this.connections.add(connection);
      client.on('close', () => this.connections.delete(connection));
      client.on('error', (error) => this.log.debug({ err: error }, 'gateway client error'));
      // The user whose password was right and whose authenticator code must follow (issue 20).
      let partial: { user: UserRow; name: string; host: string } | undefined;
      client.on('authentication', (ctx) => {
        // Draining: a login that was under way when it began is told so, never admitted.
        if (this.draining && guard.refuseLogin(client, GATEWAY_DRAINING)) return;
        const parsed = parseGatewayUsername(ctx.username);
        // A connection past its allowed failed attempts is told so and closed instead of answered.
        if (!parsed)
          return ctx.method !== 'none' && guard.failed(client) ? undefined : ctx.reject(['password', 'publickey']);
        const decide = async (): Promise<AuthOutcome> => {
          if (ctx.method !== 'keyboard-interactive') return auth.check(ctx, parsed.user, info.ip);
          const pending = partial;
          if (!pending || pending.name !== parsed.user || pending.host !== parsed.host) return { ok: false };
          const answers = await new Promise<string[]>((resolve) =>
            ctx.prompt(
              [{ prompt: CODE_PROMPT, echo: false }],
              'Gatehouse two-factor sign-in',
              'Enter the code from your authenticator app, or a recovery code.',
              resolve,
            ),
          );
          return auth.checkCode(pending.user, answers[0] ?? '', info.ip);
        };
        decide().then(
          async (outcome) => {
            if (outcome.ok) {
              partial = undefined;
              connection.authenticated(outcome.user, parsed.host, outcome.method);
              await s.repositories.audit.append({
                actorId: outcome.user.id,
                actor: outcome.user.email,
                action: 'gateway.login',
                target: parsed.host,
                outcome: 'success',
                source: info.ip,
                detail: { method: outcome.method },
              });
              ctx.accept();
            } else if ('partial' in outcome) {
              // Partial success (RFC 4252 §5.1): the password is right, the code must follow.
              partial = { user: outcome.partial, name: parsed.user, host: parsed.host };
              ctx.reject(['keyboard-interactive'], true);
            } else if ('probe' in outcome && outcome.probe) {
              ctx.accept(); // PK_OK: the client may now sign; this authenticates nobody
            } else {
              if (ctx.method !== 'none') {
                await s.repositories.audit.append({
                  actor: parsed.user,
                  action: 'gateway.login',
                  target: parsed.host,
                  outcome: 'denied',
                  source: info.ip,
                  detail: { method: ctx.method, ...(outcome.reason ? { reason: outcome.reason } : {}) },
                });
                if (guard.failed(client)) return;
              }
              // After a right password, only the code is asked for again.
              ctx.reject(partial ? ['keyboard-interactive'] : ['password', 'publickey'], partial !== undefined);
            }
          },
          (error: unknown) => {
            // The database away: the client is told so (ssh prints it) instead of "Permission denied".
            if (isDatabaseUnavailable(error) && guard.refuseLogin(client, GATEWAY_DATABASE_AWAY)) return;
            logFailure(this.log, error, 'gateway authentication failed');
            ctx.reject();
          },
        );
      });
      client.on('ready', () => {
        connection.ready();
        // Live rights: the session ends within a second of its user or definition losing the right.
        const untrack = s.liveRights.track({
          recheck: () => connection.recheckRights(),
          // The database away past the grace: rights can no longer be withdrawn, so the session ends.
          endForOutage: (message) =>
            detach(this.log, 'ending a session for a database outage', connection.end(message, 'database-unavailable')),
        });
        client.once('close', untrack);
      });
    });
    const guard = new SshLoginGuard(this.server, limits, report, this.log);
    this.guard = guard;
    return guard.listen(port, host);
  }

  /** Whether the listener takes connections (readiness). */
  get listening(): boolean {
    return this.guard?.listening ?? false;
  }

  /** Client connections open now (logged in or not). */
  get open(): number {
    return this.connections.size;
  }

  /**
   * Draining: no new connection is taken (the listener closes) and those still logging in are
   * told and closed; sessions already open go on.
   */
  stopTaking(): void {
    this.draining = true;
    this.guard?.stopTaking(GATEWAY_DRAINING);
  }

  /** Tells every open session's user something, once, on their terminal (stderr). */
  tell(text: string): void {
    for (const connection of this.connections) connection.tell(text);
  }

  /** Ends every open connection, telling its user `reason`, and finishes their recordings. */
  async endAll(reason: string): Promise<void> {
    await Promise.all([...this.connections].map((c) => c.end(reason)));
  }

  /** Stops listening and ends every session, finalising their recordings. */
  async close(): Promise<void> {
    this.draining = true;
    this.idle?.close();
    await this.endAll('the Gatehouse server is stopping');
    // Each user's ssh prints why before the process goes (the client closes, or is told in the disconnect).
    await Promise.all([...this.connections].map((c) => c.closed));
    this.limits?.close();
    this.report?.close();
    await this.guard?.close();
  }
}
