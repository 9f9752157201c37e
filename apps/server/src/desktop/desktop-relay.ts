import type net from 'node:net';
import { DESKTOP_CLOSE } from '@gatehouse/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import WebSocket from 'ws';
import type { RelayClient } from '../cluster/relay-client.js';
import type { RelayedDesktops } from '../cluster/relay-endpoint.js';
import type { Db } from '../db/client.js';
import { recordings, serverInstances } from '../db/schema.js';
import { StreamRefused } from '../realtime/agent-session.js';

/**
 * Watching a browser desktop from any instance (issue 18, ADR 0007). A desktop lives in the
 * instance that runs its Xvfb, FreeRDP and x11vnc; its recording row names that instance. A
 * watcher reaching another instance is checked there by the access policy (desktop-endpoint.ts),
 * then that instance opens a signed relay (action `desktop-watch`, the recording id signed with
 * the cluster secret) to the holder, which checks the signature and that the desktop is live there,
 * and pipes its view-only x11vnc socket (input ignored) to the relay. The holder counts the relay
 * socket among the desktop's watchers, so the desktop's end closes it with the same code and
 * reason as a local watcher, and the watcher's instance passes both on to the browser.
 */

/** Above this much unsent to a socket, reading from the other side pauses (backpressure). */
const HIGH_WATER_BYTES = 4 * 1024 * 1024;
/** How long the holder may take to answer a relayed watch with its `ready` message. */
const READY_TIMEOUT_MS = 15_000;

/** What the holder needs of one of its live desktops. */
export interface WatchableDesktop {
  desktop: { readonly width: number; readonly height: number; openViewer(): Promise<net.Socket> };
  /** Its watchers: the desktop's end closes each with its close code and reason. */
  watchers: Set<WebSocket>;
}

/** A close code a server may send in a close frame (1005, 1006 and 1015 only ever describe one). */
export function sendableCloseCode(code: number): boolean {
  return (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999);
}

/**
 * Pipes RFB between a WebSocket (binary frames) and a desktop's RFB socket, with backpressure
 * both ways. Text frames after the hello go to `onText` (resize requests and clipboard texts, as
 * large as the socket's largest message), else are ignored. Closing either side ends the other.
 */
export function bridge(ws: WebSocket, socket: net.Socket, onEnd: () => void, onText?: (text: string) => void): void {
  let waitingForDrain = false;
  socket.on('data', (chunk: Buffer) => {
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(chunk, { binary: true });
    if (ws.bufferedAmount > HIGH_WATER_BYTES) {
      socket.pause();
      const resume = setInterval(() => {
        if (ws.readyState !== WebSocket.OPEN || ws.bufferedAmount < HIGH_WATER_BYTES / 2) {
          clearInterval(resume);
          socket.resume();
        }
      }, 20);
    }
  });
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (!isBinary) {
      onText?.(data.toString('utf8'));
      return;
    }
    if (socket.destroyed) return;
    // Messages already read keep coming after ws.pause(): one wait for the drain, not one each
    // (a client asking for updates faster than a busy x11vnc reads them piled up listeners).
    if (!socket.write(data) && !waitingForDrain) {
      waitingForDrain = true;
      ws.pause();
      socket.once('drain', () => {
        waitingForDrain = false;
        ws.resume();
      });
    }
  });
  socket.on('error', () => undefined);
  socket.once('close', onEnd);
  ws.once('close', () => socket.destroy());
  // A socket handed over paused (connectRfb) flows now; one already gone ends the pipe at once.
  if (socket.closed) onEnd();
  else socket.resume();
}

/** Pipes binary messages between two WebSockets, with backpressure both ways. */
function pipeSockets(from: WebSocket, to: WebSocket): void {
  from.on('message', (data: Buffer, isBinary: boolean) => {
    if (!isBinary || to.readyState !== WebSocket.OPEN) return;
    to.send(data, { binary: true });
    if (to.bufferedAmount > HIGH_WATER_BYTES) {
      from.pause();
      const resume = setInterval(() => {
        if (to.readyState !== WebSocket.OPEN || to.bufferedAmount < HIGH_WATER_BYTES / 2) {
          clearInterval(resume);
          from.resume();
        }
      }, 20);
    }
  });
}

/**
 * The holder's side: serves relayed watchers of the desktops live here. `find` answers a live
 * desktop by recording id; `watched` tells the recordings someone watches it.
 */
export function relayedDesktops(deps: {
  find(recordingId: string): WatchableDesktop | undefined;
  watched(recordingId: string): void;
  log: FastifyBaseLogger;
}): RelayedDesktops {
  const { log } = deps;
  return {
    watch(recordingId) {
      if (!deps.find(recordingId))
        return Promise.resolve({ refused: 404, message: 'This desktop is not live on the instance asked (it ended).' });
      return Promise.resolve({
        serve(ws: WebSocket) {
          ws.on('error', (error: Error) => log.debug({ err: error }, 'relayed desktop watch socket error'));
          // Looked up again: it may have ended while the upgrade was answered.
          const entry = deps.find(recordingId);
          if (!entry) return ws.close(DESKTOP_CLOSE.ENDED, 'The desktop ended.');
          deps.watched(recordingId);
          entry.watchers.add(ws);
          ws.once('close', () => entry.watchers.delete(ws));
          entry.desktop.openViewer().then(
            (viewer) => {
              if (ws.readyState !== WebSocket.OPEN) return viewer.destroy();
              ws.send(JSON.stringify({ ready: true, width: entry.desktop.width, height: entry.desktop.height }));
              bridge(ws, viewer, () => ws.close(DESKTOP_CLOSE.ENDED, 'The desktop ended.'));
              log.info({ recording: recordingId }, 'desktop watched through the relay');
            },
            (error: unknown) => {
              log.warn({ err: error, recording: recordingId }, 'desktop viewer did not start for a relayed watcher');
              ws.close(DESKTOP_CLOSE.UNAVAILABLE, 'The view-only desktop server did not start on the gateway.');
            },
          );
        },
      });
    },
  };
}

/** A desktop's picture from the instance running it, ready to be piped to a browser. */
export interface RemotePicture {
  width: number;
  height: number;
  /** Pipes RFB between the browser and the holder; the holder's close code and reason reach the browser. */
  pipe(browser: WebSocket): void;
  /** Gives the picture up before it was piped. */
  drop(): void;
}

/**
 * The watcher's side: opens the relay to the instance running a desktop. Only after the access
 * policy let the watcher watch the recording (desktop-endpoint.ts).
 */
export class DesktopWatchRelay {
  /** Browsers watching through a relay from here (closed when this instance stops). */
  private readonly browsers = new Set<WebSocket>();

  constructor(private readonly deps: { db: Db; relay: RelayClient; self: () => string; log: FastifyBaseLogger }) {}

  /** The picture of a desktop live on another instance, or why there is none (a desktop close code). */
  async open(recordingId: string): Promise<RemotePicture | { code: number; refused: string }> {
    const notLive = 'This desktop is not live on this server instance (it ended, or another instance runs it).';
    const [row] = await this.deps.db
      .select({
        kind: recordings.kind,
        endedOn: recordings.endedOn,
        instanceId: recordings.instanceId,
        url: serverInstances.advertiseUrl,
        goneAt: serverInstances.goneAt,
      })
      .from(recordings)
      .leftJoin(serverInstances, eq(serverInstances.id, recordings.instanceId))
      .where(eq(recordings.id, recordingId));
    if (!row) return { code: DESKTOP_CLOSE.NOT_FOUND, refused: notLive };
    if (row.kind !== 'desktop')
      return {
        code: DESKTOP_CLOSE.NOT_FOUND,
        refused: 'This session is not a browser desktop run by the gateway: watch or replay it from Sessions.',
      };
    if (row.endedOn) return { code: DESKTOP_CLOSE.NOT_FOUND, refused: 'This desktop has ended: replay its recording.' };
    if (!row.instanceId || row.instanceId === this.deps.self() || !row.url || row.goneAt)
      return { code: DESKTOP_CLOSE.NOT_FOUND, refused: notLive };
    const queued: { data: Buffer; isBinary: boolean }[] = [];
    const enqueue = (data: Buffer, isBinary: boolean) => queued.push({ data, isBinary });
    let relay: WebSocket;
    try {
      relay = await this.deps.relay.watchDesktop({ instanceId: row.instanceId, url: row.url }, recordingId, (ws) => {
        // Heard from the start: the ready message may come with the upgrade's answer.
        ws.on('message', enqueue);
        return ws;
      });
    } catch (error) {
      if (!(error instanceof StreamRefused)) throw error;
      return {
        code: error.status === 404 ? DESKTOP_CLOSE.NOT_FOUND : DESKTOP_CLOSE.UNAVAILABLE,
        refused: error.message,
      };
    }
    relay.on('error', (error: Error) => this.deps.log.debug({ err: error }, 'desktop watch relay error'));
    const ready = await new Promise<{ width: number; height: number } | { code: number; refused: string }>(
      (resolve) => {
        const check = () => {
          const first = queued[0];
          if (!first) return false;
          clearTimeout(timer);
          relay.off('message', check);
          relay.off('close', closed);
          let answer: { ready?: unknown; width?: unknown; height?: unknown } = {};
          try {
            if (!first.isBinary) answer = JSON.parse(first.data.toString('utf8')) as typeof answer;
          } catch {
            // not the answer
          }
          queued.shift();
          if (answer.ready === true && typeof answer.width === 'number' && typeof answer.height === 'number')
            resolve({ width: answer.width, height: answer.height });
          else {
            relay.terminate();
            resolve({
              code: DESKTOP_CLOSE.UNAVAILABLE,
              refused: 'The instance running the desktop answered nonsense.',
            });
          }
          return true;
        };
        const closed = (code: number, reason: Buffer) => {
          clearTimeout(timer);
          relay.off('message', check);
          resolve({
            code: sendableCloseCode(code) && code >= 4000 ? code : DESKTOP_CLOSE.UNAVAILABLE,
            refused: reason.toString('utf8') || 'The instance running the desktop closed the relay.',
          });
        };
        const timer = setTimeout(() => {
          relay.off('message', check);
          relay.off('close', closed);
          relay.terminate();
          resolve({ code: DESKTOP_CLOSE.UNAVAILABLE, refused: 'The instance running the desktop did not answer.' });
        }, READY_TIMEOUT_MS);
        if (check()) return;
        relay.on('message', check);
        relay.once('close', closed);
      },
    );
    if ('refused' in ready) return ready;
    return {
      ...ready,
      drop: () => relay.close(1000),
      pipe: (browser) => {
        if (relay.readyState !== WebSocket.OPEN) {
          browser.close(DESKTOP_CLOSE.ENDED, 'The desktop ended.');
          return;
        }
        this.browsers.add(browser);
        // What came after the ready message goes first, then the relay is piped (in order).
        relay.off('message', enqueue);
        for (const { data, isBinary } of queued.splice(0))
          if (isBinary && browser.readyState === WebSocket.OPEN) browser.send(data, { binary: true });
        pipeSockets(browser, relay);
        pipeSockets(relay, browser);
        relay.once('close', (code: number, reason: Buffer) => {
          this.browsers.delete(browser);
          if (browser.readyState !== WebSocket.OPEN && browser.readyState !== WebSocket.CONNECTING) return;
          // The desktop's own code and reason (terminated, ended, server stopping...), as a local watcher reads them.
          if (sendableCloseCode(code)) browser.close(code, reason.toString('utf8'));
          else browser.close(DESKTOP_CLOSE.ENDED, 'The server instance running the desktop went away.');
        });
        browser.once('close', () => {
          this.browsers.delete(browser);
          if (relay.readyState === WebSocket.OPEN || relay.readyState === WebSocket.CONNECTING) relay.close(1000);
        });
      },
    };
  }

  /** Closes every browser watching through a relay from here (this instance is stopping). */
  closeAll(code: number, reason: string): void {
    for (const browser of this.browsers) browser.close(code, reason);
  }
}
