import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import type { Server as TlsServer } from 'node:tls';
import { Admission, type AdmissionLimits, AnswerBudget, type Refusal, endSocket } from '../lib/admission.js';
import type { BurstReport } from '../lib/burst-report.js';

/**
 * Deadlines of the HTTP and HTTPS listeners. Node's own: headers within 60 s, the whole request
 * within 300 s, checked every 30 s; fastify turns the request deadline off. Here a socket that
 * sends nothing, or trickles its headers, is answered 408 and closed within 25 s, and a body
 * trickled slower than the request deadline allows is cut off too.
 */
export const HTTP_TIMEOUTS = {
  /** Request headers must have arrived this long after the request began (ms). */
  headersMs: 20_000,
  /** The whole request (headers and body) this long after it began (ms); 8 MiB uploads need 28 KB/s. */
  requestMs: 300_000,
  /** How often Node looks for requests past either deadline (ms). */
  checkMs: 5_000,
  /** HTTPS: the TLS handshake must finish this long after connecting (ms; Node's default is 120 s). */
  tlsHandshakeMs: 10_000,
};

const REFUSAL_BODY: Record<Refusal, string> = {
  'per-address': 'Too many connections from your address; try again in a few seconds.',
  total: 'Too many connections to this server right now; try again in a few seconds.',
};

/** The 503 a refused plain-HTTP socket reads before it is closed. */
function refusal(why: Refusal): Buffer {
  const body = JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: REFUSAL_BODY[why] });
  return Buffer.from(
    'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nRetry-After: 5\r\n' +
      `Connection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
const REFUSALS: Record<Refusal, Buffer> = { 'per-address': refusal('per-address'), total: refusal('total') };

/** Defaults of GATEHOUSE_HTTP_MAX_CONNECTIONS and GATEHOUSE_HTTP_PER_ADDRESS. */
export const HTTP_CONNECTION_DEFAULTS = { total: 10_000, perAddress: 256 } as const;

/** Per socket: how to take it out of its address's count once it proved who it is. */
const vouch = new WeakMap<object, () => void>();

/**
 * A WebSocket (agent, console socket, tunnel) that authenticated: its socket no longer counts
 * against its address's cap, so many agents behind one NAT address stay connected. Anything else
 * (a request, a keep-alive socket, an upgrade still proving itself) counts while it is open.
 */
export function markAuthenticated(socket: object | null | undefined): void {
  if (!socket) return;
  // An HTTPS socket is counted as the TCP socket under it.
  const counted = vouch.has(socket) ? socket : (socket as { _parent?: object })._parent;
  const release = counted ? vouch.get(counted) : undefined;
  if (!counted || !release) return;
  vouch.delete(counted);
  release();
}

/**
 * Limits a listener of the API (plain HTTP, or HTTPS with `tls`): the deadlines above; at most
 * `perAddress` sockets from one address (an IPv6 /64) that have not authenticated a WebSocket
 * (0: no cap, as behind a reverse proxy where every client has the proxy's address), and at most
 * `total` sockets in all (Node's maxConnections). A refused plain-HTTP socket reads a 503 with
 * the reason; a refused TLS socket is closed (no words can be sent before the handshake).
 * Refusals are logged and audited once per burst.
 */
export function limitConnections(
  server: HttpServer | TlsServer,
  limits: AdmissionLimits,
  report: BurstReport,
  options: { tls?: boolean } = {},
): void {
  if ('headersTimeout' in server) {
    server.headersTimeout = HTTP_TIMEOUTS.headersMs;
    server.requestTimeout = HTTP_TIMEOUTS.requestMs;
    // Read when the server starts listening (node:http setupConnectionsTracking).
    (server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = HTTP_TIMEOUTS.checkMs;
  }
  server.maxConnections = limits.total;
  server.on('drop', (data?: { remoteAddress?: string }) =>
    report.note('too many connections', data?.remoteAddress ?? '?'),
  );
  if (limits.perAddress <= 0) return;
  // Counting per address includes WebSockets until they authenticate; the total cap is Node's.
  const admission = new Admission(() => ({ perAddress: limits.perAddress, total: Number.MAX_SAFE_INTEGER }));
  const answers = new AnswerBudget();
  const handlers = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const ip = socket.remoteAddress;
    if (!ip) return void socket.destroy();
    const ticket = admission.admit(ip);
    if (typeof ticket === 'string') {
      report.note('too many connections from the address', ip);
      if (!options.tls && answers.take()) endSocket(socket, REFUSALS[ticket], 1000);
      else socket.destroy();
      return;
    }
    vouch.set(socket, ticket.release);
    socket.once('close', ticket.release);
    for (const handler of handlers) handler.call(server, socket);
  });
}
