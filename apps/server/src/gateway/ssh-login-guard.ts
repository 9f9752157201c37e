import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { NO_DELAY, noDelay } from '@gatehouse/tunnel';
import type ssh2 from 'ssh2';
import type { BurstReport } from '../lib/burst-report.js';
import { Admission, type AdmissionTicket, AnswerBudget, type Refusal, endSocket } from '../lib/admission.js';
import type { LoginLimits } from './login-limits.js';
import { DISCONNECT, disconnect, plainDisconnect, refusalBytes } from './ssh-disconnect.js';

/** What a refused client reads (RFC 4253: our identification line, then SSH_MSG_DISCONNECT 12). */
const REFUSALS: Record<Refusal, Buffer> = {
  'per-address': refusalBytes(
    DISCONNECT.TOO_MANY_CONNECTIONS,
    'Too many connections from your address are still logging in to this gateway; try again in a few seconds.',
  ),
  total: refusalBytes(
    DISCONNECT.TOO_MANY_CONNECTIONS,
    'Too many connections are logging in to this gateway right now; try again in a few seconds.',
  ),
};

/** One TCP connection that has not authenticated yet. */
interface Pending {
  socket: net.Socket;
  ticket: AdmissionTicket;
  acceptedAt: number;
  timer: NodeJS.Timeout | undefined;
  client: ssh2.Connection | undefined;
  handshaken: boolean;
  failures: number;
}

/**
 * The SSH gateway's TCP listener. Each connection is counted until it authenticates; past the
 * caps per address or in total it is refused before ssh2 sees it (one write and a close), and an
 * admitted one is handed to ssh2 with two deadlines: the key exchange within the handshake
 * timeout, authentication within the login timeout, both counted from the TCP connection, and a
 * cap on failed authentication attempts. Refusals and deadlines are logged once per burst.
 */
export class SshLoginGuard {
  private readonly tcp: net.Server;
  private readonly admission: Admission;
  private readonly pending = new Map<string, Pending>();
  private readonly byClient = new WeakMap<ssh2.Connection, Pending>();
  private readonly answers = new AnswerBudget();

  constructor(
    private readonly ssh: ssh2.Server,
    private readonly limits: LoginLimits,
    private readonly report: BurstReport,
    private readonly log: FastifyBaseLogger,
  ) {
    this.admission = new Admission(() => this.limits.current);
    // Nagle off on every accepted socket: with it on, each echo waited ~40 ms for a delayed ACK (issue 19).
    this.tcp = net.createServer(NO_DELAY, (socket) => this.accept(noDelay(socket)));
  }

  /** Connections not yet authenticated (for tests and status). */
  get unauthenticated(): number {
    return this.admission.pending;
  }

  /** Listens on the gateway's address; answers the port. */
  async listen(port: number, host: string): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.tcp.once('error', reject);
      this.tcp.listen(port, host, () => {
        this.tcp.off('error', reject);
        resolve();
      });
    });
    this.tcp.on('error', (err) => this.log.error({ err }, 'SSH listener error'));
    return (this.tcp.address() as net.AddressInfo).port;
  }

  private accept(socket: net.Socket): void {
    const ip = socket.remoteAddress;
    if (!ip) return void socket.destroy(); // already gone
    const ticket = this.admission.admit(ip);
    if (typeof ticket === 'string') return this.refuse(socket, ip, ticket);
    const entry: Pending = {
      socket,
      ticket,
      acceptedAt: Date.now(),
      timer: undefined,
      client: undefined,
      handshaken: false,
      failures: 0,
    };
    const key = `${ip}|${socket.remotePort}`;
    this.pending.set(key, entry);
    socket.once('close', () => {
      clearTimeout(entry.timer);
      ticket.release();
      if (this.pending.get(key) === entry) this.pending.delete(key);
    });
    this.arm(entry, this.limits.current.handshakeMs);
    this.ssh.injectSocket(socket);
  }

  private refuse(socket: net.Socket, ip: string, why: Refusal): void {
    this.report.note(why === 'total' ? 'too many logging in' : 'too many logging in from the address', ip);
    if (this.answers.take()) endSocket(socket, REFUSALS[why], 1000);
    else socket.destroy();
  }

  private arm(entry: Pending, ms: number): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.deadline(entry), Math.max(0, ms));
    entry.timer.unref();
  }

  private deadline(entry: Pending): void {
    const { handshakeMs, loginMs } = this.limits.current;
    const age = Date.now() - entry.acceptedAt;
    const ip = entry.socket.remoteAddress ?? entry.ticket.address;
    if (!entry.handshaken && age >= handshakeMs) {
      this.report.note('handshake timeout', ip);
      const seconds = Math.round(handshakeMs / 1000);
      const words = `The SSH key exchange did not finish within ${seconds} s of connecting; the connection is closed.`;
      // Before the client's identification line ssh2 has no connection object; nothing is encrypted yet.
      if (entry.client) disconnect(entry.client, entry.socket, DISCONNECT.KEY_EXCHANGE_FAILED, words);
      else endSocket(entry.socket, plainDisconnect(DISCONNECT.KEY_EXCHANGE_FAILED, words), 1000);
      return;
    }
    if (age >= loginMs) {
      this.report.note('login timeout', ip);
      const words = `Not signed in within ${Math.round(loginMs / 1000)} s of connecting; the connection is closed.`;
      if (entry.client) disconnect(entry.client, entry.socket, DISCONNECT.PROTOCOL_ERROR, words);
      else endSocket(entry.socket, plainDisconnect(DISCONNECT.PROTOCOL_ERROR, words), 1000);
      return;
    }
    // The settings changed since this timer was set: wait for whichever deadline comes next.
    this.arm(entry, (entry.handshaken ? loginMs : Math.min(handshakeMs, loginMs)) - age);
  }

  /**
   * ssh2 read the client's identification line: follow its key exchange and its login. Answers
   * false for a connection this listener did not admit (none should exist).
   */
  attach(client: ssh2.Connection, info: { ip: string; port: number }): boolean {
    const entry = this.pending.get(`${info.ip}|${info.port}`);
    if (!entry) return false;
    entry.client = client;
    this.byClient.set(client, entry);
    client.once('handshake', () => {
      entry.handshaken = true;
      this.arm(entry, this.limits.current.loginMs - (Date.now() - entry.acceptedAt));
    });
    client.once('ready', () => {
      // Authenticated: no more deadlines, and no longer counted against the caps.
      clearTimeout(entry.timer);
      entry.ticket.release();
      this.pending.delete(`${info.ip}|${info.port}`);
    });
    return true;
  }

  /**
   * One failed authentication attempt. When it is the last one allowed, the client is told and
   * disconnected, and this answers true (do not answer the attempt).
   */
  failed(client: ssh2.Connection): boolean {
    const entry = this.byClient.get(client);
    if (!entry) return false;
    entry.failures += 1;
    const allowed = this.limits.current.authAttempts;
    if (entry.failures < allowed) return false;
    clearTimeout(entry.timer);
    this.report.note('too many authentication failures', entry.socket.remoteAddress ?? entry.ticket.address);
    disconnect(
      client,
      entry.socket,
      DISCONNECT.NO_MORE_AUTH_METHODS_AVAILABLE,
      `Too many authentication failures (${allowed}); the connection is closed.`,
    );
    return true;
  }

  /**
   * Ends a connection still logging in with words the client prints (SSH_MSG_DISCONNECT 2, by
   * application): used when its attempt cannot be answered at all (the database away). Answers
   * false when the connection is not one of this guard's (already authenticated or gone).
   */
  refuseLogin(client: ssh2.Connection, words: string): boolean {
    const entry = this.byClient.get(client);
    if (!entry) return false;
    clearTimeout(entry.timer);
    disconnect(client, entry.socket, DISCONNECT.BY_APPLICATION, words);
    return true;
  }

  /** Whether the listener takes connections (readiness). */
  get listening(): boolean {
    return this.tcp.listening;
  }

  /**
   * Draining: the listener stops taking connections (a balancer's next attempt goes to another
   * instance; authenticated sessions go on), and every connection still logging in is told `words`
   * and closed.
   */
  stopTaking(words: string): void {
    if (this.tcp.listening) this.tcp.close();
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      if (entry.client) disconnect(entry.client, entry.socket, DISCONNECT.BY_APPLICATION, words);
      else endSocket(entry.socket, plainDisconnect(DISCONNECT.BY_APPLICATION, words), 1000);
    }
  }

  /** Stops listening and drops every connection still logging in. */
  async close(): Promise<void> {
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      entry.socket.destroy();
    }
    this.pending.clear();
    await new Promise<void>((resolve) => this.tcp.close(() => resolve()));
  }
}
