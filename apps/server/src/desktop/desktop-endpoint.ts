import type { IncomingMessage, Server } from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import type { Duplex } from 'node:stream';
import {
  DESKTOP_CLIPBOARD_TOO_LONG,
  DESKTOP_CLOSE,
  DESKTOP_CONNECT_PATH,
  DESKTOP_WATCH_PATH,
  type DesktopClipboardRefused,
  DesktopClipboardText,
  DesktopHello,
  DesktopResize,
  DesktopWatchHello,
  type HostConfig,
  defaultHostConfig,
} from '@gatehouse/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import { markAuthenticated } from '../http/connection-limits.js';
import { HttpError } from '../http/errors.js';
import { detach } from '../lib/detach.js';
import type { Principal } from '../modules/auth/principal.js';
import { type LiveHolder, REVOKED_ACTION } from '../realtime/live-rights.js';
import type { LiveRecording } from '../recordings/recordings.service.js';
import { rdpClipboard } from '../modules/tunnels/tunnels.service.js';
import type { Services } from '../services.js';
import {
  type DesktopEnd,
  type DesktopPrograms,
  DesktopSession,
  DesktopUnavailable,
  DesktopUnreachable,
  desktopSupportProblem,
  relayDirections,
} from './desktop-session.js';
import { DesktopVideo } from './desktop-video.js';
import { DesktopWatchRelay, bridge, relayedDesktops } from './desktop-relay.js';
import { RelayClient } from '../cluster/relay-client.js';
import type { RelayedDesktops } from '../cluster/relay-endpoint.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The most desktops one instance runs at once when GATEHOUSE_DESKTOP_MAX is unset, however large. */
export const DEFAULT_DESKTOP_MAX = 25;
/**
 * Desktops per core and memory per desktop the default is sized by (docs/benchmarks.md, "Browser
 * desktops"): on a 2-core bench machine 10 ran with every input answered, 25 did not; each desktop's
 * programs hold about 300 MiB, and half the machine's memory is left to the rest.
 */
const DESKTOPS_PER_CORE = 5;
const MIB_PER_DESKTOP = 320;

/** The default cap for a machine with this many cores and this much memory (bytes): at least 1, at most 25. */
export function defaultDesktopMax(cores: number, totalMemory: number): number {
  const byMemory = Math.floor(totalMemory / 2 / (MIB_PER_DESKTOP * 1024 * 1024));
  return Math.max(1, Math.min(DEFAULT_DESKTOP_MAX, cores * DESKTOPS_PER_CORE, byMemory));
}
/** How long the browser may take to send its first message. */
export const HELLO_DEADLINE_MS = 10_000;
/**
 * Largest WebSocket message taken (RFB input, and the clipboard's text frame: up to
 * DESKTOP_CLIPBOARD_MAX_BYTES of UTF-8, which JSON may escape to six bytes a character).
 */
export const DESKTOP_MAX_MESSAGE_BYTES = 2 * 1024 * 1024;
/** Largest first message (the hello). */
const MAX_HELLO_BYTES = 8 * 1024;

/** What a desktop opened while the instance drains is answered. */
export const DESKTOP_DRAINING =
  'This Gatehouse instance is shutting down and opens no new desktops: open it again in a few seconds.';

/** A WebSocket close reason: at most 120 bytes of UTF-8, cut at a character. */
export function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 120) reason = reason.slice(0, -1);
  return reason;
}

/**
 * GATEHOUSE_DESKTOP_MAX as a number (0 turns browser desktops off); unset, what the machine's cores
 * and memory carry (defaultDesktopMax).
 */
export function desktopMax(
  env: NodeJS.ProcessEnv = process.env,
  machine: { cores: number; memory: number } = { cores: os.availableParallelism(), memory: os.totalmem() },
): number {
  const raw = env.GATEHOUSE_DESKTOP_MAX;
  if (raw === undefined || raw === '') return defaultDesktopMax(machine.cores, machine.memory);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error('GATEHOUSE_DESKTOP_MAX must be a whole number, 0 or more');
  return n;
}

/** The desktop endpoint attached to a server, and how the server's shutdown drains it. */
export interface DesktopEndpoint {
  /** Desktops open now. */
  readonly open: number;
  /** Draining: new desktops are refused; open ones go on. */
  stopTaking(): void;
  /** Ends every desktop (close 1001 with `reason`) and waits for their recordings to be finished. */
  endAll(reason: string): Promise<void>;
  /** Stops handling upgrades. */
  detach(): void;
  /** Serves other instances' watchers of the desktops live here (desktop-relay.ts). */
  readonly relayed: RelayedDesktops;
}

export interface DesktopEndpointOptions {
  /** Desktops at once on this instance (default GATEHOUSE_DESKTOP_MAX, else by the machine: desktopMax()). */
  max?: number;
  programs?: DesktopPrograms;
}

/** One live desktop: its session, its recording and its watchers. */
interface LiveDesktop {
  desktop: DesktopSession;
  recording: LiveRecording;
  watchers: Set<WebSocket>;
  end(code: number, reason: string, recordingReason: string, by?: string): Promise<void>;
}

/** Sends `{error}` then closes with `code`. */
function fail(ws: WebSocket, code: number, message: string): void {
  if (ws.readyState !== ws.OPEN) return;
  ws.send(JSON.stringify({ error: message }));
  ws.close(code, closeReason(message));
}

/** The first message: a text frame within the deadline, parsed as JSON; undefined after fail(). */
function firstMessage(ws: WebSocket): Promise<unknown> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      fail(ws, DESKTOP_CLOSE.BAD_INPUT, 'Send the sign-in message first, within 10 seconds.');
      resolve(undefined);
    }, HELLO_DEADLINE_MS);
    ws.once('close', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    ws.once('message', (data: Buffer, isBinary: boolean) => {
      clearTimeout(timer);
      if (isBinary || data.length > MAX_HELLO_BYTES) {
        fail(ws, DESKTOP_CLOSE.BAD_INPUT, 'The first message must be a short JSON text message.');
        return resolve(undefined);
      }
      try {
        resolve(JSON.parse(data.toString('utf8')));
      } catch {
        fail(ws, DESKTOP_CLOSE.BAD_INPUT, 'The first message must be JSON.');
        resolve(undefined);
      }
    });
  });
}

/**
 * Browser desktops (issue 18): `/api/desktop/connect` opens an rdp definition as a desktop run by
 * the gateway (desktop-session.ts), recorded as video while it happens; `/api/desktop/watch`
 * follows a live one view-only. Every access decision goes through the access policy; the
 * credentials of the remote desktop go to FreeRDP's stdin and nowhere else (never logged).
 */
export function attachDesktopEndpoint(
  server: Server,
  s: Services,
  log: FastifyBaseLogger,
  options: DesktopEndpointOptions = {},
): DesktopEndpoint {
  const max = options.max ?? desktopMax();
  const wss = new WebSocketServer({ noServer: true, maxPayload: DESKTOP_MAX_MESSAGE_BYTES });
  let draining = false;
  /** Live desktops by recording id. */
  const live = new Map<string, LiveDesktop>();
  /** Desktops being opened (counted against the limit) and their shutdown hooks. */
  let starting = 0;
  const ending = new Set<Promise<unknown>>();
  // Desktops live on another instance are watched through the relay to it (desktop-relay.ts).
  const elsewhere = new DesktopWatchRelay({
    db: s.database.db,
    relay: new RelayClient(s.clusterSecret, () => s.instances.id, log),
    self: () => s.instances.id,
    log,
  });

  const audit = (entry: {
    who: { userId: string | null; email: string | null };
    action: string;
    target: string;
    outcome: 'success' | 'failure' | 'denied';
    source: string | null;
    detail: Record<string, unknown>;
  }) =>
    s.repositories.audit
      .append({
        actorId: entry.who.userId,
        actor: entry.who.email,
        action: entry.action,
        target: entry.target,
        outcome: entry.outcome,
        source: entry.source,
        detail: entry.detail,
      })
      .catch((err: unknown) => log.warn({ err }, 'desktop audit entry not written'));

  const connect = async (ws: WebSocket, url: URL, source: string | null, vouch: () => void) => {
    const definitionId = url.searchParams.get('definition') ?? '';
    if (!UUID.test(definitionId))
      return fail(ws, DESKTOP_CLOSE.BAD_INPUT, 'Name the rdp definition by id: ?definition=<id>.');
    const hello = await firstMessage(ws);
    if (hello === undefined) return;
    const parsed = DesktopHello.safeParse(hello);
    if (!parsed.success) return fail(ws, DESKTOP_CLOSE.BAD_INPUT, parsed.error.issues[0]?.message ?? 'Bad message.');
    const { token, username, password, domain, width, height, screen } = parsed.data;
    // Session tokens only: a one-shot authorization answers one HTTP call and opens no desktop.
    const signedIn = await s.auth.authenticateConnection(token);
    if ('refused' in signedIn) return fail(ws, DESKTOP_CLOSE.SIGN_IN, signedIn.refused);
    vouch();
    const { principal } = signedIn;
    const who = { userId: principal.userId, email: principal.email };
    const definition = await s.repositories.tunnels.find(definitionId);
    if (!definition || definition.type !== 'rdp')
      return fail(ws, DESKTOP_CLOSE.NOT_FOUND, 'There is no rdp tunnel definition with that id.');
    if (!(await s.policy.admit(principal, definition, 'rdp', { source })))
      return fail(ws, DESKTOP_CLOSE.FORBIDDEN, `You are not admitted to ${definition.name}.`);
    const refused = (why: string, code: number) => {
      void audit({
        who,
        action: 'desktop.refused',
        target: definition.id,
        outcome: 'failure',
        source,
        detail: { definition: definition.id, host: definition.hostname, why },
      });
      fail(ws, code, why);
    };
    if (draining) return refused(DESKTOP_DRAINING, DESKTOP_CLOSE.UNAVAILABLE);
    if (live.size + starting >= max)
      return refused(
        max === 0
          ? 'Browser desktops are turned off on this server (GATEHOUSE_DESKTOP_MAX=0).'
          : `This server runs its limit of ${max} browser desktops; try again later.`,
        DESKTOP_CLOSE.UNAVAILABLE,
      );
    const problem = desktopSupportProblem(options.programs);
    if (problem) return refused(problem, DESKTOP_CLOSE.UNAVAILABLE);
    starting += 1;
    let counted = true;
    const release = () => {
      if (counted) starting -= 1;
      counted = false;
    };
    let recording: LiveRecording | undefined;
    let desktop: DesktopSession | undefined;
    let video: DesktopVideo | undefined;
    try {
      // The first stream is opened before anything is recorded: an unreachable host is answered at once.
      let first: Duplex | undefined;
      try {
        first = await s.hub.openStream(definition.agentId, definition.port);
      } catch (error) {
        return refused((error as Error).message, DESKTOP_CLOSE.UNREACHABLE);
      }
      if (ws.readyState !== ws.OPEN) return first.destroy();
      const agent = await s.repositories.agents.find(definition.agentId);
      const config = (agent?.config as HostConfig | null) ?? defaultHostConfig(agent?.os ?? 1);
      recording = await s.recordings.start({
        type: 'rdp',
        agentId: definition.agentId,
        hostname: definition.hostname,
        userId: who.userId,
        userEmail: who.email,
        definitionId: definition.id,
        definitionName: definition.name,
        width: 80,
        height: 24,
        kind: 'desktop',
      });
      const rec = recording;
      let toHost = 0;
      let toDesktop = 0;
      const meter = (stream: Duplex) => {
        stream.on('data', (d: Buffer) => (toDesktop += d.length));
        const write = stream.write.bind(stream);
        stream.write = ((chunk: Buffer, ...rest: never[]) => {
          toHost += chunk.length;
          return write(chunk, ...rest);
        }) as typeof stream.write;
        return stream;
      };
      video = new DesktopVideo(
        ({ offset, data, final }) => s.videos.appendFromGateway({ id: rec.id, offset, data, final }),
        log,
        () => {
          const entry = live.get(rec.id);
          if (entry)
            detach(
              log,
              'ending a desktop whose video failed',
              entry.end(
                DESKTOP_CLOSE.ENDED,
                'The desktop’s recording could not be stored, so the desktop was closed.',
                'video-failed',
              ),
            );
        },
      );
      const filming = video;
      rec.recorder.output(
        Buffer.from(
          `Desktop ${width}x${height} of ${definition.hostname}:${definition.port} opened through the gateway ` +
            `for ${who.email}, filmed at ${config.recording_fps} fps\r\n`,
        ),
      );
      desktop = await DesktopSession.start({
        width,
        height,
        screen,
        clipboard: rdpClipboard(definition.rdpClipboard),
        credentials: { username, password, domain },
        connect: async () => {
          if (first) {
            const stream = first;
            first = undefined;
            return meter(stream);
          }
          return meter(await s.hub.openStream(definition.agentId, definition.port));
        },
        video: {
          fps: config.recording_fps,
          scale: config.recording_scale,
          bitrate: config.recording_bitrate,
          sink: (chunk) => filming.push(chunk),
        },
        log,
        programs: options.programs,
      }).finally(() => first?.destroy());
      const meterTimer = setInterval(() => {
        if (toHost + toDesktop === 0) return;
        rec.recorder.output(Buffer.from(`${toHost} bytes to ${definition.hostname}, ${toDesktop} bytes back\r\n`));
        toHost = 0;
        toDesktop = 0;
      }, 1000);
      const session = desktop;
      let ended: Promise<void> | undefined;
      const entry: LiveDesktop = {
        desktop: session,
        recording: rec,
        watchers: new Set(),
        end: (code, reason, recordingReason, by) => {
          ended ??= (async () => {
            clearInterval(meterTimer);
            const words = closeReason(reason);
            if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code, words);
            for (const watcher of entry.watchers) watcher.close(code, words);
            await session.stop();
            await filming.finish();
            if (toHost + toDesktop > 0)
              rec.recorder.output(Buffer.from(`${toHost} bytes to the host, ${toDesktop} bytes back\r\n`));
            rec.recorder.output(Buffer.from(`Desktop closed: ${reason}\r\n`));
            await s.recordings.finish(rec, recordingReason, by);
            live.delete(rec.id);
            log.info({ recording: rec.id, reason, video_bytes: filming.bytes }, 'desktop closed');
            await audit({
              who: by ? { userId: null, email: by } : who,
              action: 'desktop.close',
              target: rec.id,
              outcome: 'success',
              source,
              detail: { definition: definition.id, host: definition.hostname, reason, video_bytes: filming.bytes },
            });
          })();
          const done = ended.finally(() => ending.delete(done));
          ending.add(done);
          return ended;
        },
      };
      live.set(rec.id, entry);
      release();
      // An administrator ends it: the user reads who did.
      rec.terminate = (by) =>
        detach(
          log,
          'terminating a desktop',
          entry.end(DESKTOP_CLOSE.TERMINATED, `Terminated by ${by}.`, 'terminated', by),
        );
      // A resize is on the record (the video films the part the desktop can take; this says which part was shown).
      session.on('resized', (size: { width: number; height: number }) =>
        rec.recorder.output(Buffer.from(`Desktop resized to ${size.width}x${size.height}\r\n`)),
      );
      session.on('ended', (end: DesktopEnd) =>
        detach(
          log,
          'ending a desktop',
          entry.end(end.failed ? DESKTOP_CLOSE.UNREACHABLE : DESKTOP_CLOSE.ENDED, end.message, 'closed'),
        ),
      );
      // Live rights: signed out, expired, no longer admitted, definition changed → 4003.
      const holder: LiveHolder = {
        tokenHash: principal.tokenHash,
        expiresAt: principal.expiresAt.getTime(),
        recheck: async () => {
          if (ws.readyState !== ws.OPEN) return;
          const why = await withdrawn(token, definition.id, definition.agentId, definition.port, source);
          if (!why) return;
          await audit({
            who,
            action: REVOKED_ACTION,
            target: rec.id,
            outcome: 'denied',
            source,
            detail: { connection: 'desktop', definition: definition.id, why },
          });
          await entry.end(DESKTOP_CLOSE.REVOKED, why, 'revoked');
        },
      };
      const untrack = s.liveRights.track(holder);
      ws.once('close', untrack);
      // Keyboard and mouse reach the desktop through this connection: it must answer before the browser is told ready.
      let control: net.Socket;
      try {
        control = await session.openControl();
      } catch (error) {
        log.warn({ err: error, recording: rec.id }, 'the desktop server did not answer');
        await entry.end(
          DESKTOP_CLOSE.UNAVAILABLE,
          'The gateway’s desktop server did not answer. Try again; if it goes on, the server’s log says why.',
          'closed',
        );
        return;
      }
      if (ws.readyState !== ws.OPEN) {
        control.destroy();
        await entry.end(DESKTOP_CLOSE.ENDED, 'The browser left before the desktop was ready.', 'closed');
        return;
      }
      log.info(
        { recording: rec.id, definition: definition.id, host: definition.hostname, user: who.email, width, height },
        'desktop opened',
      );
      void audit({
        who,
        action: 'desktop.open',
        target: rec.id,
        outcome: 'success',
        source,
        detail: {
          definition: definition.id,
          host: definition.hostname,
          port: definition.port,
          width,
          height,
          clipboard: session.clipboard,
        },
      });
      ws.send(
        JSON.stringify({
          ready: true,
          recording_id: rec.id,
          width: session.width,
          height: session.height,
          clipboard: session.clipboard,
        }),
      );
      /** A clipboard text the gateway did not take: the browser shows why. */
      const refuseClipboard = (code: DesktopClipboardRefused['code'], why: string) => {
        if (ws.readyState === ws.OPEN)
          ws.send(JSON.stringify({ clipboard_refused: why, code } satisfies DesktopClipboardRefused));
      };
      /**
       * The browser's clipboard text (docs/deploy/desktop.md, Clipboard): checked against the
       * definition's policy here, whatever the console offered, then owned as the desktop's
       * CLIPBOARD by the relay. The recording says how much, never what.
       */
      const pasted = (value: object) => {
        if (!relayDirections(session.clipboard).toDesktop)
          return refuseClipboard(
            'not-allowed',
            'This desktop’s definition lets no text into the desktop: nothing was sent.',
          );
        const message = DesktopClipboardText.safeParse(value);
        if (!message.success) {
          const why = message.error.issues[0]?.message ?? 'malformed message';
          return refuseClipboard(
            why === DESKTOP_CLIPBOARD_TOO_LONG ? 'too-long' : 'malformed',
            `The clipboard text was refused: ${why}`.replace(/\.?$/, '.'),
          );
        }
        const { text } = message.data.clipboard;
        if (!session.paste(text))
          return refuseClipboard('unavailable', 'The desktop’s clipboard is not available: nothing was sent.');
        rec.recorder.output(
          Buffer.from(`Clipboard: ${Buffer.byteLength(text)} bytes of text from the browser to the desktop\r\n`),
        );
      };
      bridge(
        ws,
        control,
        () =>
          detach(
            log,
            'ending a desktop',
            entry.end(DESKTOP_CLOSE.ENDED, 'The desktop server closed the connection.', 'closed'),
          ),
        (text) => {
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch {
            // A clipboard text cut short or garbled is answered; anything else unreadable is ignored.
            if (text.trimStart().startsWith('{"clipboard"'))
              refuseClipboard(
                'malformed',
                'The clipboard text was not readable JSON: nothing was sent to the desktop.',
              );
            return;
          }
          // The browser's area changed size (docs/deploy/desktop.md): bounded and rate-limited by the session.
          const asked = DesktopResize.safeParse(value);
          if (asked.success)
            return detach(log, 'resizing a desktop', session.resize(asked.data.resize.width, asked.data.resize.height));
          if (typeof value === 'object' && value !== null && 'clipboard' in value) pasted(value);
        },
      );
      // The host copied: its text goes to this browser only (never to watchers), when the policy lets text out.
      session.on('clipboard', (text: string) => {
        if (!relayDirections(session.clipboard).fromDesktop || ws.readyState !== ws.OPEN) return;
        ws.send(JSON.stringify({ clipboard: { text } } satisfies DesktopClipboardText));
        rec.recorder.output(
          Buffer.from(
            `Clipboard: ${Buffer.byteLength(text)} bytes of text copied on the desktop sent to the browser\r\n`,
          ),
        );
      });
      // The browser leaves: the desktop ends with it.
      ws.once('close', () =>
        detach(log, 'ending a desktop', entry.end(DESKTOP_CLOSE.ENDED, 'The browser closed the desktop.', 'closed')),
      );
    } catch (error) {
      release();
      const known = error instanceof DesktopUnavailable || error instanceof DesktopUnreachable;
      if (!known) log.error({ err: error }, 'desktop failed to open');
      const message = known ? error.message : 'The desktop could not be opened on the server.';
      if (desktop) await desktop.stop();
      if (video) await video.finish().catch(() => undefined);
      if (recording) {
        recording.recorder.output(Buffer.from(`Desktop not opened: ${message}\r\n`));
        await s.recordings
          .finish(recording, 'failed')
          .catch((err: unknown) => log.warn({ err }, 'recording not finished'));
      }
      refused(message, error instanceof DesktopUnreachable ? DESKTOP_CLOSE.UNREACHABLE : DESKTOP_CLOSE.UNAVAILABLE);
    } finally {
      release();
    }
  };

  /** Why an open desktop's rights are gone, if they are. */
  const withdrawn = async (
    token: string,
    definitionId: string,
    agentId: string,
    port: number,
    source: string | null,
  ): Promise<string | undefined> => {
    const again = await s.auth.authenticateConnection(token);
    if ('refused' in again) return again.refused;
    const current = await s.repositories.tunnels.find(definitionId);
    if (!current || current.agentId !== agentId || current.port !== port)
      return 'The rdp definition was deleted or changed: open the desktop again.';
    if (!(await s.policy.admit(again.principal, current, 'rdp', { source })))
      return `You are no longer admitted to ${current.name}.`;
    return undefined;
  };

  const watch = async (ws: WebSocket, url: URL, source: string | null, vouch: () => void) => {
    const recordingId = url.searchParams.get('recording') ?? '';
    if (!UUID.test(recordingId)) return fail(ws, DESKTOP_CLOSE.BAD_INPUT, 'Name the session: ?recording=<id>.');
    const hello = await firstMessage(ws);
    if (hello === undefined) return;
    const parsed = DesktopWatchHello.safeParse(hello);
    if (!parsed.success) return fail(ws, DESKTOP_CLOSE.BAD_INPUT, parsed.error.issues[0]?.message ?? 'Bad message.');
    const signedIn = await s.auth.authenticateConnection(parsed.data.token);
    if ('refused' in signedIn) return fail(ws, DESKTOP_CLOSE.SIGN_IN, signedIn.refused);
    vouch();
    const { principal } = signedIn;
    const mayWatch = async (p: Principal): Promise<string | undefined> => {
      try {
        await s.sessions.forWatcher(p, recordingId, { source });
        return undefined;
      } catch (error) {
        if (error instanceof HttpError) return error.message;
        throw error;
      }
    };
    const refusal = await mayWatch(principal);
    if (refusal) return fail(ws, DESKTOP_CLOSE.FORBIDDEN, refusal);
    /** A watcher's rights kept checked, the watch audited, then the picture piped (here or relayed). */
    const follow = (width: number, height: number, pipe: () => void) => {
      const holder: LiveHolder = {
        tokenHash: principal.tokenHash,
        expiresAt: principal.expiresAt.getTime(),
        recheck: async () => {
          if (ws.readyState !== ws.OPEN) return;
          const again = await s.auth.authenticateConnection(parsed.data.token);
          const why = 'refused' in again ? again.refused : await mayWatch(again.principal);
          if (!why) return;
          ws.close(DESKTOP_CLOSE.REVOKED, closeReason(why));
        },
      };
      const untrack = s.liveRights.track(holder);
      ws.once('close', untrack);
      void audit({
        who: { userId: principal.userId, email: principal.email },
        action: 'desktop.watch',
        target: recordingId,
        outcome: 'success',
        source,
        detail: {},
      });
      ws.send(JSON.stringify({ ready: true, width, height }));
      pipe();
    };
    const entry = live.get(recordingId);
    if (!entry) {
      const remote = await elsewhere.open(recordingId);
      if ('refused' in remote) return fail(ws, remote.code, remote.refused);
      if (ws.readyState !== ws.OPEN) return remote.drop();
      return follow(remote.width, remote.height, () => remote.pipe(ws));
    }
    s.recordings.watch(recordingId);
    let viewer: net.Socket;
    try {
      viewer = await entry.desktop.openViewer();
    } catch (error) {
      log.warn({ err: error }, 'desktop viewer did not start');
      return fail(ws, DESKTOP_CLOSE.UNAVAILABLE, 'The view-only desktop server did not start on the gateway.');
    }
    if (ws.readyState !== ws.OPEN) return viewer.destroy();
    entry.watchers.add(ws);
    ws.once('close', () => entry.watchers.delete(ws));
    return follow(entry.desktop.width, entry.desktop.height, () =>
      bridge(ws, viewer, () => ws.close(DESKTOP_CLOSE.ENDED, 'The desktop ended.')),
    );
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://gatehouse');
    const handler =
      url.pathname === DESKTOP_CONNECT_PATH ? connect : url.pathname === DESKTOP_WATCH_PATH ? watch : undefined;
    if (!handler) return;
    const source = request.socket.remoteAddress ?? null;
    wss.handleUpgrade(request, socket, head, (ws) => {
      ws.on('error', (error: Error) => log.debug({ err: error }, 'desktop socket error'));
      // Counted against its address's cap of connections only until it signs in.
      handler(ws, url, source, () => markAuthenticated(socket)).catch((error: unknown) => {
        log.error({ err: error }, 'desktop connection failed');
        fail(ws, DESKTOP_CLOSE.UNAVAILABLE, 'The desktop could not be opened on the server.');
      });
    });
  };
  server.on('upgrade', onUpgrade);
  return {
    get open() {
      return live.size;
    },
    stopTaking() {
      draining = true;
    },
    async endAll(reason) {
      draining = true;
      elsewhere.closeAll(DESKTOP_CLOSE.SERVER_STOPPING, closeReason(reason));
      await Promise.allSettled(
        [...live.values()].map((entry) => entry.end(DESKTOP_CLOSE.SERVER_STOPPING, reason, 'server-stopped')),
      );
      await Promise.allSettled([...ending]);
    },
    detach() {
      server.off('upgrade', onUpgrade);
      wss.close();
    },
    relayed: relayedDesktops({ find: (id) => live.get(id), watched: (id) => s.recordings.watch(id), log }),
  };
}
