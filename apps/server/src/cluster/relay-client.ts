import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketDuplex, maskOptions } from '@gatehouse/tunnel';
import WebSocket from 'ws';
import { type AgentStream, StreamRefused, type VideoRequest } from '../realtime/agent-session.js';
import type { ClusterSecret } from './cluster-secret.js';
import { RELAY_PATH, type RelayAction, signRelay } from './relay-auth.js';

/** Largest relay message either way (tunnel frames are at most 64 KiB). */
export const RELAY_MAX_PAYLOAD = 1024 * 1024;
/** The holding instance waits up to 10 s for the agent to open a stream; this covers it. */
const RELAY_OPEN_TIMEOUT_MS = 15_000;

/** The instance holding an agent, as the database says. */
export interface AgentHolder {
  instanceId: string;
  url: string;
}

/**
 * A stream to an agent's host relayed through the instance holding the agent: the relay
 * WebSocket as a byte stream (binary messages, "end" for half-close, backpressure through the
 * socket), with the video request as a JSON text message the holding instance passes on.
 */
export class RelayedStream extends WebSocketDuplex implements AgentStream {
  constructor(private readonly relay: WebSocket) {
    super(relay);
  }

  captureVideo(request: VideoRequest): boolean {
    if (this.destroyed || this.relay.readyState !== WebSocket.OPEN) return false;
    this.relay.send(JSON.stringify({ t: 'record', ...request }));
    return true;
  }
}

/** What the refusing instance said, or why it could not be asked. */
function readRefusal(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      if (body.length < 4096) body += chunk;
    });
    response.on('end', () => {
      try {
        const parsed = JSON.parse(body) as { message?: unknown };
        resolve(typeof parsed.message === 'string' ? parsed.message : `status ${response.statusCode}`);
      } catch {
        resolve(`status ${response.statusCode}`);
      }
    });
    response.on('error', () => resolve(`status ${response.statusCode}`));
  });
}

/**
 * Asks other server instances for what only the instance holding an agent's socket can do (ADR
 * 0007): every request is signed with the cluster secret and goes straight to the holder's
 * advertised URL, never through the balancer.
 */
export class RelayClient {
  constructor(
    private readonly secret: ClusterSecret,
    private readonly self: () => string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Opens a signed relay; `opened` takes the socket in its 'open' event, before any message it
   * carried can be emitted (the first bytes may arrive with the upgrade's answer).
   */
  private async connect<T>(
    holder: AgentHolder,
    action: RelayAction,
    agentId: string,
    port: number,
    opened: (ws: WebSocket) => T,
    recordingId?: string,
  ): Promise<T> {
    const key = await this.secret.key();
    const { headers, query } = signRelay(key, {
      action,
      source: this.self(),
      target: holder.instanceId,
      agentId,
      port,
      ...(recordingId ? { recordingId } : {}),
    });
    const base = holder.url.replace(/^http/, 'ws');
    const url = `${base}${RELAY_PATH}?${query}`;
    const ws = new WebSocket(url, {
      headers,
      ...maskOptions(url),
      maxPayload: RELAY_MAX_PAYLOAD,
      perMessageDeflate: false,
      handshakeTimeout: RELAY_OPEN_TIMEOUT_MS,
    });
    return new Promise((resolve, reject) => {
      const fail = (message: string, status?: number) => {
        ws.removeAllListeners('open');
        ws.on('error', () => undefined);
        reject(new StreamRefused(message, status));
      };
      ws.once('open', () => {
        ws.removeAllListeners('unexpected-response');
        ws.removeAllListeners('error');
        resolve(opened(ws));
      });
      ws.once('unexpected-response', (request, response) => {
        void readRefusal(response).then((message) => {
          request.destroy();
          fail(message, response.statusCode);
        });
      });
      ws.once('error', (error) => {
        this.log.warn(
          { err: error, instance: holder.instanceId, url: holder.url, agent: agentId || undefined, recordingId },
          `the instance holding the ${recordingId ? 'desktop' : 'agent'} could not be reached for a relay`,
        );
        fail(
          recordingId
            ? 'The server instance running the desktop could not be reached; try again in a few seconds.'
            : 'The server instance holding the host’s agent could not be reached; try again in a few seconds.',
        );
      });
    });
  }

  /** A stream to the host's port through the holding instance (which checks the whitelist again). */
  openStream(holder: AgentHolder, agentId: string, port: number): Promise<AgentStream> {
    return this.connect(holder, 'stream', agentId, port, (ws) => new RelayedStream(ws));
  }

  /**
   * The view-only picture of a browser desktop live on `holder` (desktop/desktop-relay.ts): the
   * relay socket, handed to `opened` in its 'open' event (before any message can be emitted);
   * refusals throw StreamRefused with the holder's status (404: not live there).
   */
  watchDesktop<T>(holder: AgentHolder, recordingId: string, opened: (ws: WebSocket) => T): Promise<T> {
    return this.connect(holder, 'desktop-watch', '', 0, opened, recordingId);
  }

  /** Has the holding instance send the agent its stored config; answers whether the agent had it. */
  async pushConfig(holder: AgentHolder, agentId: string): Promise<boolean> {
    try {
      return await this.connect(
        holder,
        'config',
        agentId,
        0,
        (ws) =>
          new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => {
              ws.terminate();
              resolve(false);
            }, RELAY_OPEN_TIMEOUT_MS);
            ws.on('error', () => undefined);
            ws.once('message', (data: Buffer) => {
              clearTimeout(timer);
              let applied = false;
              try {
                applied = (JSON.parse(data.toString('utf8')) as { applied?: unknown }).applied === true;
              } catch {
                // A holder that answers nonsense did not apply it.
              }
              ws.close(1000);
              resolve(applied);
            });
            ws.once('close', () => {
              clearTimeout(timer);
              resolve(false);
            });
          }),
      );
    } catch (error) {
      this.log.warn({ err: error, agent: agentId }, 'config push not relayed');
      return false;
    }
  }
}
