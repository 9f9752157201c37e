import type { Duplex } from 'node:stream';
import {
  AGENT_CLOSE,
  AgentToServer,
  type CaptureStatus,
  type HostConfig,
  type RecordVideo,
  STREAM_WINDOW_OFFERED,
  type ServerToAgent,
} from '@gatehouse/contracts';
import { MuxStream, type MuxLink, TRACING, decodeData, encodeData, trace, traceReads } from '@gatehouse/tunnel';
import type { FastifyBaseLogger } from 'fastify';
import WebSocket from 'ws';
import { AGENT_MESSAGE_LIMITS, AgentMessageLimits, type AgentMessageKind } from './agent-limits.js';

const OPEN_TIMEOUT_MS = 10_000;
/** A flooding agent gets this long to take its close frame before its socket is cut. */
const FLOOD_CLOSE_GRACE_MS = 1000;

/** What a flood was: the kind over its limit and how many of each kind the socket sent. */
export interface AgentFlood {
  kind: AgentMessageKind | 'data';
  reason: string;
  counts: Partial<Record<AgentMessageKind | 'data', number>>;
}

/** Why a stream could not be opened, in words the user sees. */
export class StreamRefused extends Error {
  constructor(
    message: string,
    /** The HTTP status a relay answers with it: 403 outside the whitelist, 404 not held here, 502 else. */
    readonly status = 502,
  ) {
    super(message);
  }
}

/** What a video capture asks of the agent besides the stream: the recording and the host's settings. */
export type VideoRequest = Omit<RecordVideo, 't' | 'stream'>;

/**
 * A byte stream to a port on an agent's host, with TCP-like half-close and backpressure, whichever
 * instance holds the agent: a stream of the agent's socket here, or one relayed from the instance
 * holding it (cluster/relay-client.ts).
 */
export interface AgentStream extends Duplex {
  /** Asks the agent to capture its desktop while this stream lives; false when it could not be asked. */
  captureVideo(request: VideoRequest): boolean;
}

/** A stream of an agent socket held by this instance. */
class AgentMuxStream extends MuxStream implements AgentStream {
  constructor(
    id: number,
    link: MuxLink,
    private readonly session: AgentSession,
    peerWindow: number | undefined,
  ) {
    super(id, link, peerWindow);
  }

  captureVideo(request: VideoRequest): boolean {
    if (this.destroyed) return false;
    this.session.send({ t: 'record', stream: this.id, ...request });
    return true;
  }
}

/** One connected agent's WebSocket: its streams, pending opens and heartbeat. */
export class AgentSession {
  private readonly streams = new Map<number, MuxStream>();
  private readonly pending = new Map<
    number,
    { resolve: (s: AgentStream) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();
  private nextStream = 1;
  private readonly limits = new AgentMessageLimits();
  /** Set once the socket flooded: nothing it sends is read any more. */
  private flooded: AgentFlood | undefined;
  lastPong = Date.now();
  /**
   * Pings sent since the agent last answered one (the hub's beat counts them). Counted in pings, not
   * in time since the last pong: when this server's own thread was blocked, the pong waiting in the
   * socket is read only after the late beat, and a clock would blame the agent for the server's stall.
   */
  unansweredPings = 0;
  /** What the agent reported in its hello. */
  hello: { hostname: string; os: 1 | 2 | 3; version: string } | undefined;
  /** How many hellos were applied on this connection (the first one announces the agent). */
  hellos = 0;
  /** The hub's database writes for this socket, in order (hellos, then the disconnection). */
  bookkeeping: Promise<void> = Promise.resolve();

  constructor(
    readonly agentId: string,
    readonly ws: WebSocket,
    /** The agent's address, for the audit trail. */
    readonly source: string | null,
    private readonly log: FastifyBaseLogger,
    private readonly events: {
      onHello: (session: AgentSession) => void;
      onConfigApplied: (session: AgentSession, config: HostConfig) => void;
      /** The agent reported how a session's video capture stands (issue 18). */
      onCapture?: (session: AgentSession, status: CaptureStatus) => void;
      onClose: (session: AgentSession) => void;
      /** The socket sent more than its limits allow and is being closed. */
      onFlood: (session: AgentSession, flood: AgentFlood) => void;
    },
  ) {
    if (TRACING) {
      const socket = (ws as unknown as { _socket?: { prependListener(e: 'data', l: (c: Buffer) => void): unknown } })
        ._socket;
      if (socket) traceReads(socket, 's.read');
    }
    ws.on('pong', () => {
      this.lastPong = Date.now();
      this.unansweredPings = 0;
    });
    ws.on('message', (data: Buffer, isBinary: boolean) =>
      isBinary ? this.onData(data) : this.onText(data.toString('utf8')),
    );
    ws.on('close', () => this.closed());
    ws.on('error', (error) => log.warn({ err: error, agent: agentId }, 'agent socket error'));
  }

  private readonly link: MuxLink = {
    sendData: (stream, data) => {
      if (TRACING) trace('s.send', stream, data.length);
      this.ws.send(encodeData(stream, data));
    },
    sendAck: (stream, bytes) => this.send({ t: 'ack', stream, bytes }),
    sendEnd: (stream) => this.send({ t: 'end', stream }),
    sendClose: (stream) => {
      this.streams.delete(stream);
      if (this.ws.readyState === WebSocket.OPEN) this.send({ t: 'close', stream });
    },
    streamsOpen: () => this.streams.size,
  };

  /** Sends a control message. */
  send(message: ServerToAgent): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** Asks the agent for a stream to 127.0.0.1:port; rejects with the agent's reason when it refuses. */
  open(port: number): Promise<AgentStream> {
    const stream = this.nextStream;
    this.nextStream += 1;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(stream);
        reject(new StreamRefused(`The agent did not answer within ${OPEN_TIMEOUT_MS / 1000} s.`));
      }, OPEN_TIMEOUT_MS);
      this.pending.set(stream, { resolve, reject, timer });
      this.send({ t: 'open', stream, port, window: STREAM_WINDOW_OFFERED });
    });
  }

  /** Counts a message of this kind; false (and the socket closing) when the kind is over its limit. */
  private allow(kind: AgentMessageKind): boolean {
    if (this.limits.take(kind)) return true;
    const limit = AGENT_MESSAGE_LIMITS[kind];
    this.flood(kind, `too many ${kind} messages (more than ${limit.burst} at once)`);
    return false;
  }

  /**
   * Ends a flooding socket: tells the agent why with a close frame, ignores what else it sends,
   * and cuts it if it does not answer the close within a second. Reported once, however much more
   * it sent.
   */
  private flood(kind: AgentFlood['kind'], reason: string): void {
    if (this.flooded) return;
    this.flooded = { kind, reason, counts: { ...this.limits.counts } };
    this.ws.close(AGENT_CLOSE.FLOODED, reason.slice(0, 120));
    setTimeout(() => this.ws.terminate(), FLOOD_CLOSE_GRACE_MS).unref();
    this.log.warn({ agent: this.agentId, kind, counts: this.flooded.counts }, `agent flooded its socket: ${reason}`);
    this.events.onFlood(this, this.flooded);
  }

  private onData(frame: Buffer): void {
    if (this.flooded) return;
    const decoded = decodeData(frame);
    if (!decoded) {
      this.malformed();
      return;
    }
    const stream = this.streams.get(decoded.stream);
    if (!stream) {
      this.allow('unknown-stream');
      return;
    }
    this.limits.countData();
    if (TRACING) trace('s.recv', decoded.stream, decoded.data.length);
    if (!stream.receive(decoded.data)) this.flood('data', 'sent past the stream window');
  }

  private malformed(): void {
    this.log.warn({ agent: this.agentId }, 'agent sent a malformed message; closing');
    this.flooded = { kind: 'data', reason: 'malformed message', counts: { ...this.limits.counts } };
    this.ws.close(1008, 'malformed message');
  }

  private onText(text: string): void {
    if (this.flooded) return;
    let message: AgentToServer;
    try {
      message = AgentToServer.parse(JSON.parse(text));
    } catch {
      this.malformed();
      return;
    }
    switch (message.t) {
      case 'hello':
        if (!this.allow('hello')) return;
        this.hello = { hostname: message.hostname, os: message.os, version: message.version };
        this.hellos += 1;
        this.events.onHello(this);
        break;
      case 'config-applied':
        if (!this.allow('config-applied')) return;
        this.events.onConfigApplied(this, message.config);
        break;
      case 'capture':
        if (!this.allow('capture')) return;
        this.events.onCapture?.(this, message);
        break;
      case 'opened':
      case 'refused': {
        const waiting = this.pending.get(message.stream);
        if (!this.allow(waiting ? 'control' : 'unknown-stream') || !waiting) return;
        this.pending.delete(message.stream);
        clearTimeout(waiting.timer);
        if (message.t === 'refused') {
          waiting.reject(new StreamRefused(message.reason));
        } else {
          const mux = new AgentMuxStream(message.stream, this.link, this, message.window);
          this.streams.set(message.stream, mux);
          waiting.resolve(mux);
        }
        break;
      }
      case 'end':
      case 'close': {
        const stream = this.streams.get(message.stream);
        if (!this.allow(stream ? 'control' : 'unknown-stream') || !stream) return;
        if (message.t === 'end') {
          stream.peerEnded();
        } else {
          stream.peerClosed();
          this.streams.delete(message.stream);
        }
        break;
      }
      case 'ack': {
        // Acknowledgements of bytes sent are bounded by what was sent; others are counted.
        const stream = this.streams.get(message.stream);
        if (!stream) this.allow('unknown-stream');
        else if (!stream.acknowledge(message.bytes)) this.allow('control');
        break;
      }
    }
  }

  private closed(): void {
    for (const stream of this.streams.values()) stream.destroy();
    this.streams.clear();
    for (const waiting of this.pending.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(new StreamRefused('The agent disconnected.'));
    }
    this.pending.clear();
    this.events.onClose(this);
  }
}
