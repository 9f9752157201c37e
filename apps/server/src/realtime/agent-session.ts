import { AgentToServer, type HostConfig, type ServerToAgent } from '@gatehouse/contracts';
import { MuxStream, type MuxLink, decodeData, encodeData } from '@gatehouse/tunnel';
import type { FastifyBaseLogger } from 'fastify';
import WebSocket from 'ws';

const OPEN_TIMEOUT_MS = 10_000;

/** Why a stream could not be opened, in words the user sees. */
export class StreamRefused extends Error {}

/** One connected agent's WebSocket: its streams, pending opens and heartbeat. */
export class AgentSession {
  private readonly streams = new Map<number, MuxStream>();
  private readonly pending = new Map<
    number,
    { resolve: (s: MuxStream) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();
  private nextStream = 1;
  lastPong = Date.now();
  /** What the agent reported in its hello. */
  hello: { hostname: string; os: 1 | 2 | 3; version: string } | undefined;

  constructor(
    readonly agentId: string,
    readonly ws: WebSocket,
    /** The agent's address, for the audit trail. */
    readonly source: string | null,
    private readonly log: FastifyBaseLogger,
    private readonly events: {
      onHello: (session: AgentSession) => void;
      onConfigApplied: (session: AgentSession, config: HostConfig) => void;
      onClose: (session: AgentSession) => void;
    },
  ) {
    ws.on('pong', () => (this.lastPong = Date.now()));
    ws.on('message', (data: Buffer, isBinary: boolean) =>
      isBinary ? this.onData(data) : this.onText(data.toString('utf8')),
    );
    ws.on('close', () => this.closed());
    ws.on('error', (error) => log.warn({ err: error, agent: agentId }, 'agent socket error'));
  }

  private readonly link: MuxLink = {
    sendData: (stream, data) => this.ws.send(encodeData(stream, data)),
    sendAck: (stream, bytes) => this.send({ t: 'ack', stream, bytes }),
    sendEnd: (stream) => this.send({ t: 'end', stream }),
    sendClose: (stream) => {
      this.streams.delete(stream);
      if (this.ws.readyState === WebSocket.OPEN) this.send({ t: 'close', stream });
    },
  };

  /** Sends a control message. */
  send(message: ServerToAgent): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** Asks the agent for a stream to 127.0.0.1:port; rejects with the agent's reason when it refuses. */
  open(port: number): Promise<MuxStream> {
    const stream = this.nextStream;
    this.nextStream += 1;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(stream);
        reject(new StreamRefused(`The agent did not answer within ${OPEN_TIMEOUT_MS / 1000} s.`));
      }, OPEN_TIMEOUT_MS);
      this.pending.set(stream, { resolve, reject, timer });
      this.send({ t: 'open', stream, port });
    });
  }

  private onData(frame: Buffer): void {
    const decoded = decodeData(frame);
    if (decoded) this.streams.get(decoded.stream)?.receive(decoded.data);
  }

  private onText(text: string): void {
    let message: AgentToServer;
    try {
      message = AgentToServer.parse(JSON.parse(text));
    } catch {
      this.log.warn({ agent: this.agentId }, 'agent sent a malformed message; closing');
      this.ws.close(1008, 'malformed message');
      return;
    }
    switch (message.t) {
      case 'hello':
        this.hello = { hostname: message.hostname, os: message.os, version: message.version };
        this.events.onHello(this);
        break;
      case 'config-applied':
        this.events.onConfigApplied(this, message.config);
        break;
      case 'opened':
      case 'refused': {
        const waiting = this.pending.get(message.stream);
        if (!waiting) return;
        this.pending.delete(message.stream);
        clearTimeout(waiting.timer);
        if (message.t === 'refused') {
          waiting.reject(new StreamRefused(message.reason));
        } else {
          const mux = new MuxStream(message.stream, this.link);
          this.streams.set(message.stream, mux);
          waiting.resolve(mux);
        }
        break;
      }
      case 'end':
        this.streams.get(message.stream)?.peerEnded();
        break;
      case 'close':
        this.streams.get(message.stream)?.peerClosed();
        this.streams.delete(message.stream);
        break;
      case 'ack':
        this.streams.get(message.stream)?.acknowledge(message.bytes);
        break;
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
