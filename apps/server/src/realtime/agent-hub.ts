import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  AGENT_CLOSE,
  AGENT_CONNECT_PATH,
  AGENT_CREDENTIAL_HEADER,
  AGENT_ID_HEADER,
  AGENT_PING_MS,
  type CaptureStatus,
  type HostConfig,
  defaultHostConfig,
} from '@gatehouse/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { noDelay } from '@gatehouse/tunnel';
import { WebSocketServer } from 'ws';
import type { AgentsRepository } from '../modules/agents/agents.repository.js';
import { agentFromCredential } from '../modules/policy/agent-credential.js';
import { markAuthenticated } from '../http/connection-limits.js';
import { logFailure } from '../lib/detach.js';
import type { AgentHolder } from '../cluster/relay-client.js';
import { type AgentFlood, AgentSession, type AgentStream, StreamRefused } from './agent-session.js';
import type { LiveRights } from './live-rights.js';

/**
 * Pings (one every AGENT_PING_MS) an agent may leave unanswered before its socket is dropped: it is
 * dropped at the beat after the second, when it answered nothing for 8 to 12 s of this server running.
 */
export const UNANSWERED_PINGS_TO_DROP = 2;

/**
 * Events: 'changed' (agentId) when an agent connects, disconnects, is deleted or starts
 * reconnecting; 'connection' ({agentId, hostname, source, connected}) for the audit trail;
 * 'config-applied' (agentId, config); 'revoked' ({agentId, hostname, source, reason}) when live
 * rights closed an agent's socket; 'flood' ({agentId, hostname, source, kind, reason, counts}) once
 * for each socket closed for sending more than its limits (realtime/agent-limits.ts).
 */
export class AgentHub extends EventEmitter {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 2 * 1024 * 1024 });
  private readonly sessions = new Map<string, AgentSession>();
  private readonly timer: NodeJS.Timeout;
  private closing = false;
  /**
   * How streams and config pushes reach agents held by other instances (cluster/relay-client.ts);
   * unset, only agents connected here are reached.
   */
  relay:
    | {
        openStream(holder: AgentHolder, agentId: string, port: number): Promise<AgentStream>;
        pushConfig(holder: AgentHolder, agentId: string): Promise<boolean>;
      }
    | undefined;
  /**
   * Where agents' capture status reports go (recordings/capture-status.ts): stored on the
   * agent's own rdp recordings only. Unset, reports are ignored.
   */
  capture: { report(agentId: string, status: CaptureStatus): Promise<'applied' | 'kept' | 'refused'> } | undefined;
  /** Draining (SIGTERM): agents that connect now are sent to another instance (503). */
  private draining = false;

  constructor(
    private readonly agents: AgentsRepository,
    private readonly log: FastifyBaseLogger,
    /** The id of this server instance, which the agents connected here are recorded under. */
    private readonly instanceId: () => string,
    /** Re-checks each agent's credential whenever rights change: a deleted agent's socket closes. */
    private readonly rights?: LiveRights,
    /** Whether an authenticated agent may connect once more now (shared counts: AGENT_CONNECTS_PER_MINUTE). */
    private readonly admit?: (agentId: string) => Promise<boolean>,
  ) {
    super();
    this.timer = setInterval(
      () => void this.beat().catch((error: unknown) => this.log.error({ err: error }, 'agent heartbeat failed')),
      AGENT_PING_MS,
    );
    this.timer.unref();
  }

  /** Takes the WebSocket upgrades of the agent path; leaves every other path alone. */
  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if ((request.url ?? '').split('?')[0] !== AGENT_CONNECT_PATH) return;
      noDelay(socket); // every stream's small frames share the agent's socket
      if (this.draining)
        return refuse(socket, 503, 'This Gatehouse instance is shutting down: the agent connects again elsewhere.');
      this.upgrade(request, socket, head).catch((error: unknown) => {
        logFailure(this.log, error, 'agent upgrade failed');
        refuse(socket, 503, 'The server could not accept the agent right now.');
      });
    });
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const id = String(request.headers[AGENT_ID_HEADER] ?? '');
    const credential = request.headers[AGENT_CREDENTIAL_HEADER];
    const agent = await agentFromCredential(this.agents, id, credential);
    if (!agent) {
      refuse(socket, 401, 'This agent is not enrolled here, or it was deleted. Register it again with a new key.');
      return;
    }
    if (this.admit && !(await this.admit(id))) {
      this.log.warn({ agent: id }, 'agent connects too often; refused for now');
      refuse(socket, 429, 'This agent connects too often: it may connect again in a minute.');
      return;
    }
    // Proven: many agents behind one NAT address do not count against its cap of connections.
    markAuthenticated(socket);
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      this.sessions.get(id)?.ws.close(AGENT_CLOSE.REPLACED, 'replaced by a newer connection');
      const session = new AgentSession(id, ws, request.socket.remoteAddress ?? null, this.log, {
        // Hellos and the close are written in order: a hello still being written when the socket
        // closes never leaves the agent flagged connected after its disconnection.
        onHello: (s) => {
          s.bookkeeping = s.bookkeeping.then(() =>
            this.hello(s).catch((error: unknown) => {
              // A database error here ends this agent's connection, not the server; it reconnects.
              this.log.error({ err: error, agent: s.agentId }, 'agent hello failed; closing its connection');
              s.ws.close(1011, 'the server could not record the connection');
            }),
          );
        },
        onConfigApplied: (s, config) => this.emit('config-applied', s.agentId, config),
        // Capture reports are written in order with the hellos; the Agents screen hears of each applied one.
        onCapture: (s, status) => {
          const capture = this.capture;
          if (!capture) return;
          s.bookkeeping = s.bookkeeping.then(() =>
            capture.report(s.agentId, status).then(
              (outcome) => {
                if (outcome !== 'refused') this.emit('changed', s.agentId);
              },
              (error: unknown) =>
                this.log.warn({ err: error, agent: s.agentId }, 'capture status not stored; the agent goes on'),
            ),
          );
        },
        onFlood: (s, flood: AgentFlood) =>
          this.emit('flood', { agentId: s.agentId, hostname: agent.hostname, source: s.source, ...flood }),
        onClose: (s) =>
          void this.closed(s).catch((error: unknown) =>
            this.log.error({ err: error, agent: s.agentId }, 'agent disconnection bookkeeping failed'),
          ),
      });
      this.sessions.set(id, session);
      // Live rights: a socket whose agent was deleted (on any instance) or re-keyed closes within a second.
      const untrack = this.rights?.track({
        recheck: async () => {
          if (ws.readyState !== ws.OPEN || (await agentFromCredential(this.agents, id, credential))) return;
          const reason = 'This agent was deleted, or enrolled again: register it again with a new key.';
          ws.close(AGENT_CLOSE.REVOKED, reason);
          this.emit('revoked', { agentId: id, hostname: agent.hostname, source: session.source, reason });
        },
      });
      ws.once('close', () => untrack?.());
    });
  }

  private async hello(session: AgentSession): Promise<void> {
    if (!session.hello || session.ws.readyState !== session.ws.OPEN) return;
    // A repeated hello (its limit allows a few) is applied again without a second 'connected' entry.
    const first = session.hellos === 1;
    await this.agents.markConnected(session.agentId, session.hello, this.instanceId());
    const agent = await this.agents.find(session.agentId);
    if (!agent) {
      session.ws.close(AGENT_CLOSE.REVOKED, 'deleted in the console');
      return;
    }
    // The host name was fixed at enrolment (issue 14): a different one in the hello is ignored,
    // logged and audited by its length and digest only, never its raw (possibly hostile) bytes.
    const reported = session.hello.hostname;
    if (reported.toLowerCase() !== agent.hostname) {
      const described = describeReportedName(reported);
      this.log.warn(
        { agent: session.agentId, hostname: agent.hostname, reported: described },
        'agent reported another host name; ignored',
      );
      this.emit('hostname-ignored', {
        agentId: session.agentId,
        hostname: agent.hostname,
        reported: described,
        source: session.source,
      });
    }
    session.hello.hostname = agent.hostname;
    const stored = agent.config as HostConfig | null | undefined;
    session.send({ t: 'config', config: stored ?? defaultHostConfig(session.hello.os) });
    if (!first) return;
    this.log.info({ agent: session.agentId, hostname: session.hello.hostname }, 'agent connected');
    this.emit('connection', {
      agentId: session.agentId,
      hostname: session.hello.hostname,
      source: session.source,
      connected: true,
    });
    this.emit('changed', session.agentId);
  }

  private async closed(session: AgentSession): Promise<void> {
    if (this.sessions.get(session.agentId) !== session) return; // replaced: the newer one counts
    this.sessions.delete(session.agentId);
    await session.bookkeeping;
    // At shutdown the agents stay flagged connected: this instance's row says it stopped, so they
    // read 'reconnecting' until they are back on another (or this one restarted).
    if (this.closing) return;
    await this.agents.markDisconnected(session.agentId, this.instanceId()).catch(() => undefined);
    this.log.info({ agent: session.agentId }, 'agent disconnected');
    this.emit('connection', {
      agentId: session.agentId,
      hostname: session.hello?.hostname ?? null,
      source: session.source,
      connected: false,
    });
    this.emit('changed', session.agentId);
  }

  /** Pings every agent, drops the silent ones, and records who is alive for every instance to see. */
  private async beat(): Promise<void> {
    const alive: string[] = [];
    for (const session of this.sessions.values()) {
      // Two pings in a row unanswered while this server ran (8 to 12 s): the link is dead.
      if (session.unansweredPings >= UNANSWERED_PINGS_TO_DROP) {
        session.ws.terminate();
      } else {
        session.ws.ping();
        session.unansweredPings += 1;
        alive.push(session.agentId);
      }
    }
    try {
      await this.agents.touch(alive, this.instanceId());
      // Agents of a gone instance that did not come back, or silent ones: their flag follows.
      for (const id of await this.agents.staleIds()) {
        if (this.sessions.has(id)) continue;
        await this.agents.markDisconnected(id);
        this.emit('changed', id);
      }
    } catch (error) {
      this.log.warn({ err: error }, 'agent heartbeat bookkeeping failed');
    }
  }

  /**
   * Server instances were found gone: their agents now read 'reconnecting', and the consoles
   * hear so.
   */
  async instancesGone(instanceIds: string[]): Promise<void> {
    for (const id of await this.agents.heldBy(instanceIds)) if (!this.sessions.has(id)) this.emit('changed', id);
  }

  /** How many agents hold a connection to this instance. */
  get connectedHere(): number {
    return this.sessions.size;
  }

  /** True when the agent is connected to this instance. */
  isConnected(agentId: string): boolean {
    return this.sessions.has(agentId);
  }

  /** The other instance holding this agent's socket, when one does and can be reached. */
  private async holderElsewhere(agentId: string): Promise<AgentHolder | undefined> {
    if (!this.relay) return undefined;
    const holder = await this.agents.holder(agentId);
    if (!holder?.url || holder.instanceId === this.instanceId()) return undefined;
    return { instanceId: holder.instanceId, url: holder.url };
  }

  /**
   * Sends a config to the agent, here or through the instance holding it (which sends what the
   * database holds, saved before this call); answers whether the agent was connected.
   */
  async pushConfig(agentId: string, config: HostConfig): Promise<boolean> {
    const session = this.sessions.get(agentId);
    if (session) {
      session.send({ t: 'config', config });
      return true;
    }
    const holder = await this.holderElsewhere(agentId);
    return holder ? this.relay!.pushConfig(holder, agentId) : false;
  }

  /** Sends its stored config to an agent connected here (a relayed push); false when it is not here. */
  async pushStoredConfig(agentId: string): Promise<boolean> {
    const session = this.sessions.get(agentId);
    if (!session) return false;
    const agent = await this.agents.find(agentId);
    if (!agent) return false;
    session.send({ t: 'config', config: (agent.config as HostConfig | null) ?? defaultHostConfig(agent.os) });
    return true;
  }

  /**
   * Opens a stream to a whitelisted port of the agent's host, whichever instance holds the agent:
   * the whitelist is checked here, again on the holding instance when relayed, and on the agent.
   */
  async openStream(agentId: string, port: number): Promise<AgentStream> {
    if (this.sessions.has(agentId)) return this.openHere(agentId, port);
    const holder = await this.holderElsewhere(agentId);
    if (!holder) return this.openHere(agentId, port); // refused there, in the words of its state
    await this.checkWhitelist(agentId, port);
    return this.relay!.openStream(holder, agentId, port);
  }

  /** Opens a stream through the agent's socket on this instance (never relayed). */
  async openHere(agentId: string, port: number): Promise<AgentStream> {
    if (!this.sessions.has(agentId)) {
      const state = (await this.agents.find(agentId))?.state;
      throw new StreamRefused(
        state === 'reconnecting'
          ? 'The host’s agent is reconnecting after a server restart; try again in a few seconds.'
          : 'The host is not connected.',
        404,
      );
    }
    await this.checkWhitelist(agentId, port);
    const session = this.sessions.get(agentId);
    if (!session) throw new StreamRefused('The agent disconnected.', 404);
    return session.open(port);
  }

  private async checkWhitelist(agentId: string, port: number): Promise<void> {
    const agent = await this.agents.find(agentId);
    const whitelist = ((agent?.config as HostConfig | null) ?? defaultHostConfig(agent?.os ?? 1)).whitelist;
    if (!whitelist.includes(port)) {
      throw new StreamRefused(`Port ${port} is not in the whitelist of ${agent?.hostname ?? 'this host'}.`, 403);
    }
  }

  /**
   * Asks the agent to capture its desktop while this stream lives, when its host's config has
   * recording_enabled; answers whether it was asked. The video arrives over HTTP, not this socket.
   * A relayed stream passes the request to the instance holding the agent.
   */
  async captureVideo(agentId: string, stream: AgentStream, recordingId: string): Promise<boolean> {
    if (stream.destroyed) return false;
    const agent = await this.agents.find(agentId);
    const config = (agent?.config as HostConfig | null) ?? defaultHostConfig(agent?.os ?? 1);
    if (!config.recording_enabled) return false;
    return stream.captureVideo({
      recording_id: recordingId,
      fps: config.recording_fps,
      scale: config.recording_scale,
      bitrate: config.recording_bitrate,
    });
  }

  /** Disconnects an agent (it was deleted). */
  disconnect(agentId: string, reason: string): void {
    this.sessions.get(agentId)?.ws.close(AGENT_CLOSE.REVOKED, reason.slice(0, 120));
  }

  /** Draining: connected agents stay (their sessions go on), agents connecting now are refused. */
  stopTaking(): void {
    this.draining = true;
  }

  /** Closes every agent connection (server shutdown); the agents reconnect to whoever serves next. */
  close(): void {
    this.closing = true;
    clearInterval(this.timer);
    for (const session of this.sessions.values()) session.ws.terminate();
    this.wss.close();
  }
}

/** A name an agent reported, described without its bytes: its length and a digest to compare. */
export function describeReportedName(name: string): string {
  return `${name.length} characters, sha256 ${createHash('sha256').update(name).digest('hex').slice(0, 16)}`;
}

const STATUS_TEXT: Record<number, string> = {
  401: 'Unauthorized',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ statusCode: status, message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
