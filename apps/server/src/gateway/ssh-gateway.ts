import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import ssh2 from 'ssh2';
import type { Services } from '../services.js';
import { GatewayAuth, parseGatewayUsername } from './gateway-auth.js';
import { GatewayConnection } from './gateway-connection.js';
import { IdleSweep } from './idle-sweep.js';

/**
 * The SSH listener users reach with unchanged OpenSSH clients: `ssh -p 2222 alice@web-01@gateway`.
 * It authenticates the Gatehouse user, then each connection is handled by a GatewayConnection.
 */
export class SshGateway {
  private server: ssh2.Server | undefined;
  private readonly connections = new Set<GatewayConnection>();
  private idle: IdleSweep | undefined;

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
    this.server = new ssh2.Server({ hostKeys: [hostKey], ident: 'Gatehouse' }, (client, info) => {
      const connection = new GatewayConnection(client, info.ip, s, this.log, (minutes) => idle.update(minutes));
      this.connections.add(connection);
      client.on('close', () => this.connections.delete(connection));
      client.on('error', (error) => this.log.debug({ err: error }, 'gateway client error'));
      client.on('authentication', (ctx) => {
        const parsed = parseGatewayUsername(ctx.username);
        if (!parsed) return ctx.reject(['password', 'publickey']);
        auth.check(ctx, parsed.user, info.ip).then(
          async (outcome) => {
            if (outcome.ok) {
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
                  detail: { method: ctx.method },
                });
              }
              ctx.reject(['password', 'publickey']);
            }
          },
          (error: unknown) => {
            this.log.error({ err: error }, 'gateway authentication failed');
            ctx.reject();
          },
        );
      });
      client.on('ready', () => {
        connection.ready();
        // Live rights: the session ends within a second of its user or definition losing the right.
        const untrack = s.liveRights.track({ recheck: () => connection.recheckRights() });
        client.once('close', untrack);
      });
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return (server.address() as AddressInfo).port;
  }

  /** Stops listening and ends every session, finalising their recordings. */
  async close(): Promise<void> {
    this.idle?.close();
    await Promise.all([...this.connections].map((c) => c.end('the Gatehouse server is stopping')));
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
