import https from 'node:https';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { HTTP_TIMEOUTS } from '../../http/connection-limits.js';
import type { IngressTlsService, TlsMaterial } from './ingress-tls.service.js';

/** How often an instance looks for a certificate another instance installed. */
export const TLS_POLL_MS = 5000;

/**
 * Serves the same application over HTTPS with the ingress certificate: requests and upgrades
 * (socket.io, agents, tunnels) go to the HTTP server's handlers. It starts listening once a
 * certificate is installed and swaps certificates in place (setSecureContext) when the database
 * holds a new one, so no restart is needed and every instance follows.
 */
export class HttpsListener {
  private server: https.Server | undefined;
  private version: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private listening: Promise<void> | undefined;

  constructor(
    private readonly app: Server,
    private readonly tls: IngressTlsService,
    private readonly port: number,
    private readonly host: string,
    private readonly log: FastifyBaseLogger,
    /** Applies the HTTP listener's limits to the HTTPS server before it listens. */
    private readonly prepare: (server: https.Server) => void = () => undefined,
  ) {}

  /** Loads the certificate (if any) and keeps following changes. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(
      () => void this.refresh().catch((err: unknown) => this.log.warn({ err }, 'TLS refresh failed')),
      TLS_POLL_MS,
    );
    this.timer.unref();
  }

  /** Checks the database for a new certificate now. */
  async refresh(): Promise<void> {
    const material = await this.tls.material();
    if (!material || material.version === this.version) return;
    await this.apply(material);
  }

  private async apply(material: TlsMaterial): Promise<void> {
    if (!this.server) {
      const server = https.createServer({
        cert: material.cert,
        key: material.key,
        handshakeTimeout: HTTP_TIMEOUTS.tlsHandshakeMs,
      });
      this.prepare(server);
      server.on('request', (req, res) => this.app.emit('request', req, res));
      server.on('upgrade', (req, socket, head) => this.app.emit('upgrade', req, socket, head));
      server.on('tlsClientError', (err) => this.log.debug({ err }, 'TLS handshake failed'));
      this.server = server;
      this.listening = new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(this.port, this.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      await this.listening;
      this.log.info({ port: this.address()?.port }, 'HTTPS listening with the ingress certificate');
    } else {
      this.server.setSecureContext({ cert: material.cert, key: material.key });
      this.log.info('ingress certificate replaced without a restart');
    }
    this.version = material.version;
  }

  /** Where HTTPS listens, once it does. */
  address(): AddressInfo | undefined {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address : undefined;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
