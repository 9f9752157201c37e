import os from 'node:os';
import type { IncomingMessage, Server } from 'node:http';
import { type Duplex, pipeline } from 'node:stream';
import { RecordVideo } from '@gatehouse/contracts';
import { WebSocketDuplex } from '@gatehouse/tunnel';
import type { FastifyBaseLogger } from 'fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Db } from '../db/client.js';
import { markAuthenticated } from '../http/connection-limits.js';
import type { AgentHub } from '../realtime/agent-hub.js';
import { StreamRefused } from '../realtime/agent-session.js';
import type { ClusterSecret } from './cluster-secret.js';
import { RELAY_MAX_PAYLOAD } from './relay-client.js';
import { RELAY_HEADERS, RELAY_PATH, RelayRefused, purgeRelayNonces, verifyRelay } from './relay-auth.js';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  421: 'Misdirected Request',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ statusCode: status, message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * How this instance serves a watcher of one of its browser desktops to another instance
 * (desktop/desktop-relay.ts): the desktop's view-only picture, or why not (an HTTP status and message).
 */
export interface RelayedDesktops {
  watch(recordingId: string): Promise<{ refused: number; message: string } | { serve(ws: WebSocket): void }>;
}

/** A video request from the asking instance: RecordVideo without the stream (the stream is the relay). */
const RelayedVideo = RecordVideo.omit({ stream: true });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A claimed id as logged: only when it has the shape of one (never raw header bytes). */
const claimed = (value: unknown) => (typeof value === 'string' && UUID.test(value) ? value : undefined);

/**
 * The relay endpoint (ADR 0007): other server instances ask here, over a signed WebSocket upgrade,
 * for a stream to a host whose agent this instance holds, or for a config push to it. Refused,
 * and logged by reason (never the signature or the secret), unless the request is signed with the
 * cluster secret, fresh, from a running instance and never seen before; the host's whitelist is
 * checked here again. The stream is the agent's stream as a WebSocket byte stream with half-close
 * (packages/tunnel ws-duplex), backpressure both ways.
 */
export function attachRelayEndpoint(
  server: Server,
  deps: {
    hub: AgentHub;
    secret: ClusterSecret;
    db: Db;
    self: () => string;
    log: FastifyBaseLogger;
    /** The browser desktops of this instance, once their endpoint is attached. */
    desktops?: () => RelayedDesktops | undefined;
  },
): () => void {
  const { log } = deps;
  const wss = new WebSocketServer({ noServer: true, maxPayload: RELAY_MAX_PAYLOAD, perMessageDeflate: false });
  const purge = setInterval(() => {
    purgeRelayNonces(deps.db).catch((error: unknown) => log.warn({ err: error }, 'relay nonces not purged'));
  }, 60_000);
  purge.unref();

  const handle = async (request: IncomingMessage, socket: Duplex, head: Buffer, url: URL) => {
    const who = {
      source: request.socket.remoteAddress ?? null,
      instance: claimed(request.headers[RELAY_HEADERS.instance]),
      agent: claimed(url.searchParams.get('agent')),
    };
    let relay;
    try {
      relay = await verifyRelay({ key: await deps.secret.key(), db: deps.db, self: deps.self() }, url, request.headers);
    } catch (error) {
      if (!(error instanceof RelayRefused)) throw error;
      log.warn({ ...who, reason: error.reason }, `relay request refused: ${error.reason}`);
      return refuse(socket, error.status, error.answer);
    }
    // Proven an instance: relays from one address do not count against its cap of connections.
    markAuthenticated(socket);
    if (relay.action === 'desktop-watch') {
      const desktops = deps.desktops?.();
      if (!desktops) return refuse(socket, 503, 'This instance runs no browser desktops.');
      const picture = await desktops.watch(relay.recordingId ?? '');
      if ('refused' in picture) {
        log.warn({ ...who, recording: relay.recordingId, reason: picture.message }, 'relayed desktop watch refused');
        return refuse(socket, picture.refused, picture.message);
      }
      wss.handleUpgrade(request, socket, head, (ws) => picture.serve(ws));
      return;
    }
    if (relay.action === 'config') {
      const applied = await deps.hub.pushStoredConfig(relay.agentId);
      wss.handleUpgrade(request, socket, head, (ws) => {
        ws.on('error', () => undefined);
        ws.send(JSON.stringify({ applied }), () => ws.close(1000));
      });
      return;
    }
    let target;
    try {
      target = await deps.hub.openHere(relay.agentId, relay.port);
    } catch (error) {
      if (!(error instanceof StreamRefused)) throw error;
      log.warn({ ...who, port: relay.port, reason: error.message }, 'relayed stream refused');
      return refuse(socket, error.status, error.message);
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const relayed = new WebSocketDuplex(ws);
      // Either side closing under the pipes errors the other after they finished: expected.
      relayed.on('error', (error: Error) => log.debug({ err: error }, 'relay socket closed'));
      target.on('error', (error: Error) => log.debug({ err: error }, 'relayed agent stream closed'));
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary) return;
        const text = data.toString('utf8');
        if (text === 'end') return;
        let video;
        try {
          video = RelayedVideo.parse(JSON.parse(text));
        } catch {
          log.warn({ ...who }, 'a relay sent a malformed control message; closing it');
          relayed.destroy(new Error('malformed relay control message'));
          return;
        }
        target.captureVideo({
          recording_id: video.recording_id,
          fps: video.fps,
          scale: video.scale,
          bitrate: video.bitrate,
        });
      });
      pipeline(relayed, target, () => undefined);
      pipeline(target, relayed, () => undefined);
    });
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://gatehouse');
    if (url.pathname !== RELAY_PATH) return;
    handle(request, socket, head, url).catch((error: unknown) => {
      log.error({ err: error }, 'relay request failed');
      refuse(socket, 503, 'The relay could not be served right now.');
    });
  };
  server.on('upgrade', onUpgrade);
  return () => {
    clearInterval(purge);
    server.off('upgrade', onUpgrade);
    wss.close();
  };
}

/**
 * The URL the other instances reach this one at when GATEHOUSE_ADVERTISE_URL is unset: the listen
 * address and port; for a wildcard listen address, this machine's first non-loopback IPv4 address
 * (set GATEHOUSE_ADVERTISE_URL where that is not the one the other instances reach).
 */
export function defaultAdvertiseUrl(host: string, port: number): string {
  let address = host;
  if (host === '0.0.0.0' || host === '::' || host === '') {
    address =
      Object.values(os.networkInterfaces())
        .flat()
        .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address ?? '127.0.0.1';
  }
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}
