import {
  AGENT_CLOSE,
  AGENT_CONNECT_PATH,
  AGENT_CREDENTIAL_HEADER,
  AGENT_ID_HEADER,
  AGENT_PING_MS,
  type AgentToServer,
  type HostConfig,
  type RecordVideo,
  STREAM_WINDOW_OFFERED,
  ServerToAgent,
} from '@gatehouse/contracts';
import {
  type MuxLink,
  type MuxStream,
  TRACING,
  decodeData,
  encodeData,
  maskOptions,
  noDelay,
  trace,
  traceReads,
} from '@gatehouse/tunnel';
import type net from 'node:net';
import WebSocket from 'ws';
import type { Log } from './log.js';
import { backoffDelay, floodDelay } from './backoff.js';
import { openLocal } from './relay.js';
import type { Identity, StateDir } from './state.js';
import { type CaptureOptions, type LocalPorts, RdpCapture } from './video-capture.js';

/** The server no longer knows this agent's credential: it was deleted in the console. */
export class CredentialRevoked extends Error {}

/** How one connection ended: the close code and reason, or an HTTP status that refused the upgrade. */
interface Ending {
  code?: number;
  reason?: string;
  status?: number;
}

/** Keeps the agent's WebSocket to the server: reconnects, applies config, relays streams. */
export class AgentConnection {
  private whitelist: readonly number[] = [];
  private readonly streams = new Map<number, MuxStream>();
  private readonly captures = new Set<RdpCapture>();
  /** Each open stream's local socket ends, so a capture can find the xrdp session it became. */
  private readonly locals = new Map<number, LocalPorts>();
  private attempt = 0;
  private stopped = false;

  constructor(
    private readonly identity: Identity,
    private readonly hello: { hostname: string; os: 1 | 2 | 3; version: string },
    private readonly state: StateDir,
    private readonly log: Log,
    private readonly capture: CaptureOptions = { source: undefined, ffmpeg: 'ffmpeg' },
  ) {
    const saved = state.config();
    if (saved) this.apply(saved, false);
  }

  /** Runs until the credential is revoked (rejects with CredentialRevoked) or stop() is called. */
  run(): Promise<void> {
    return new Promise((resolve, reject) => {
      const loop = () => {
        if (this.stopped) return resolve();
        this.connectOnce().then(
          (ending) => {
            if (this.stopped) return resolve();
            const flooded = ending.code === AGENT_CLOSE.FLOODED || ending.status === 429;
            const delay = flooded ? floodDelay() : backoffDelay(this.attempt);
            this.attempt += 1;
            const why = ending.code ? ` (${ending.code}${ending.reason ? `: ${ending.reason}` : ''})` : '';
            const after = `reconnecting in ${(delay / 1000).toFixed(1)} s`;
            if (ending.status === 429) this.log.error(`the server refused this agent for now (HTTP 429); ${after}`);
            else if (flooded) this.log.error(`the server closed this agent for sending too much${why}; ${after}`);
            else this.log.notice(`disconnected${why}; ${after}`);
            setTimeout(loop, delay);
          },
          (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
        );
      };
      loop();
    });
  }

  /** Stops reconnecting. */
  stop(): void {
    this.stopped = true;
  }

  /** Ends every video capture so its last fragment is uploaded; gives up after timeoutMs. */
  async stopCaptures(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.captures].map((c) => c.stop())),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
  }

  private apply(config: HostConfig, save = true): void {
    this.whitelist = config.whitelist;
    this.log.setLevel(config.loglevel);
    if (save) this.state.saveConfig(config);
  }

  /** One connection; resolves with how it ended when the reason is worth retrying. */
  private connectOnce(): Promise<Ending> {
    const url = `${this.identity.server.replace(/^http/, 'ws')}${AGENT_CONNECT_PATH}`;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, {
        headers: { [AGENT_ID_HEADER]: this.identity.id, [AGENT_CREDENTIAL_HEADER]: this.identity.credential },
        handshakeTimeout: 15_000,
        maxPayload: 2 * 1024 * 1024,
        // Unmasked frames over TLS and loopback: masking was most of the relay's CPU (issue 19).
        ...maskOptions(url),
      });
      let watchdog: NodeJS.Timeout | undefined;
      const alive = () => {
        clearTimeout(watchdog);
        // No ping from the server for three intervals: the link is dead even if TCP says otherwise.
        watchdog = setTimeout(() => ws.terminate(), AGENT_PING_MS * 3);
      };
      const send = (message: AgentToServer) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
      };
      const link: MuxLink = {
        sendData: (stream, data) => {
          if (!TRACING) return ws.send(encodeData(stream, data));
          trace('a.send', stream, data.length);
          ws.send(encodeData(stream, data), () => trace('a.sent', stream, data.length));
        },
        sendAck: (stream, bytes) => send({ t: 'ack', stream, bytes }),
        sendEnd: (stream) => {
          if (ws.readyState === WebSocket.OPEN) send({ t: 'end', stream });
        },
        sendClose: (stream) => {
          this.streams.delete(stream);
          if (ws.readyState === WebSocket.OPEN) send({ t: 'close', stream });
        },
        streamsOpen: () => this.streams.size,
      };
      // Every stream's small frames share this socket: Nagle off (ws does it too; see noDelay).
      ws.on('upgrade', (res) => {
        noDelay(res.socket);
        if (TRACING) traceReads(res.socket, 'a.read');
      });
      ws.on('unexpected-response', (_req, res) => {
        if (res.statusCode === 401) {
          reject(new CredentialRevoked('The server no longer accepts this agent’s credential: the host was deleted.'));
        } else {
          this.log.warn(`server answered HTTP ${res.statusCode} to the connection`);
          resolve({ status: res.statusCode });
        }
        res.resume();
      });
      ws.on('open', () => {
        alive();
        this.log.notice(`connected to ${this.identity.server} as ${this.hello.hostname}`);
        send({ t: 'hello', ...this.hello });
      });
      ws.on('ping', alive);
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary) {
          const frame = decodeData(data);
          if (frame && TRACING) trace('a.recv', frame.stream, frame.data.length);
          if (frame) this.streams.get(frame.stream)?.receive(frame.data);
          return;
        }
        this.handle(data.toString('utf8'), send, link);
      });
      ws.on('error', (error) => this.log.warn(`connection error: ${error.message}`));
      ws.on('close', (code: number, reason: Buffer) => {
        clearTimeout(watchdog);
        for (const stream of this.streams.values()) stream.destroy();
        this.streams.clear();
        resolve({ code, reason: reason.toString('utf8') });
      });
    });
  }

  /**
   * Films the rdp stream's desktop session while it lives (its own xrdp session on Linux, or the
   * explicit --capture-source); the stream works the same without video. How the capture stands
   * goes to the server as CaptureStatus messages.
   */
  private record(message: RecordVideo, send: (m: AgentToServer) => void): void {
    const mux = this.streams.get(message.stream);
    if (!mux || mux.destroyed) {
      send({ t: 'capture', recording_id: message.recording_id, state: 'stopped', detail: 'the stream had closed' });
      return;
    }
    const capture = RdpCapture.start({
      record: message,
      identity: this.identity,
      options: this.capture,
      log: this.log,
      send,
      local: this.locals.get(message.stream),
    });
    this.captures.add(capture);
    mux.once('close', () => void capture.stop().finally(() => this.captures.delete(capture)));
  }

  private handle(text: string, send: (m: AgentToServer) => void, link: MuxLink): void {
    let parsed: ServerToAgent;
    try {
      parsed = ServerToAgent.parse(JSON.parse(text));
    } catch {
      this.log.warn('ignored a malformed message from the server');
      return;
    }
    switch (parsed.t) {
      case 'config':
        // The server took the hello: the next outage starts its backoff from the shortest wait.
        this.attempt = 0;
        this.apply(parsed.config);
        this.log.info(
          `applied config: loglevel ${parsed.config.loglevel}, whitelist [${parsed.config.whitelist.join(', ')}]`,
        );
        send({ t: 'config-applied', config: parsed.config });
        break;
      case 'open': {
        const { stream, port, window } = parsed;
        const opened = (mux: MuxStream, socket: net.Socket) => {
          this.streams.set(stream, mux);
          if (socket.localPort !== undefined && socket.remotePort !== undefined) {
            this.locals.set(stream, { localPort: socket.localPort, remotePort: socket.remotePort });
          }
          mux.once('close', () => this.locals.delete(stream));
        };
        void openLocal(stream, port, window, this.whitelist, link, this.log, opened).then((reason) =>
          send(reason ? { t: 'refused', stream, reason } : { t: 'opened', stream, window: STREAM_WINDOW_OFFERED }),
        );
        break;
      }
      case 'record':
        this.record(parsed, send);
        break;
      case 'end':
        this.streams.get(parsed.stream)?.peerEnded();
        break;
      case 'close':
        this.streams.get(parsed.stream)?.peerClosed();
        this.streams.delete(parsed.stream);
        break;
      case 'ack':
        this.streams.get(parsed.stream)?.acknowledge(parsed.bytes);
        break;
    }
  }
}
