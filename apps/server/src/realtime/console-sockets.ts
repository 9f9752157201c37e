import type { Server as HttpServer } from 'node:http';
import { closeRedisClient, connectRedisPair } from './redis-clients.js';
import type { FastifyBaseLogger } from 'fastify';
import { type DefaultEventsMap, Server, type Socket } from 'socket.io';
import { AttachRequest, type RecordOut, SESSION_EVENTS } from '@gatehouse/contracts';
import type { AuditRepository } from '../modules/audit/audit.repository.js';
import type { AuthService } from '../modules/auth/auth.service.js';
import type { Principal } from '../modules/auth/principal.js';
import type { AccessPolicy } from '../modules/policy/access-policy.js';
import type { SessionsService } from '../modules/recordings/sessions.service.js';
import type { RecordingsService } from '../recordings/recordings.service.js';
import type { LiveChunk } from '../recordings/recorder.js';
import { detach } from '../lib/detach.js';
import type { AgentHub } from './agent-hub.js';
import { type LiveRights, REVOKED_ACTION } from './live-rights.js';
import { markAuthenticated } from '../http/connection-limits.js';
import { WATCH_DROPPED_EVENT, WATCH_DROPPED_MESSAGE, WatchGuard } from './watch-backpressure.js';

/** Socket events the console hears. */
export const CONSOLE_EVENTS = {
  agentsChanged: 'agents_changed',
  countsChanged: 'navigation_counts_changed',
  /** The server closes this socket: its token was revoked or expired, or its user deleted ({message}). */
  revoked: 'access_revoked',
} as const;

/** What a console socket carries between its events. */
interface ConsoleSocketData {
  token: string;
  tokenHash: string;
  userId: string;
  email: string;
  /** When the token expires (ms since the epoch). */
  expiresAt: number;
}

/** The room of a recording's watchers. */
const RECORDING_ROOM = 'recording:';
export const recordingRoom = (id: string) => `${RECORDING_ROOM}${id}`;

/** The room of holders of a permission: events go only to those who may see them. */
export const permissionRoom = (permission: string) => `perm:${permission}`;

/** Requests between server instances (through the Redis adapter); each answers through its ack. */
interface InstanceEvents {
  /** End this session if it runs here; answers whether it did. */
  'gatehouse:terminate': (request: { id: string; by: string }, ack: (ended: boolean) => void) => void;
  /** Someone attached to this session: if it runs here, start sending its chunks. */
  'gatehouse:watch': (id: string, ack: (here: boolean) => void) => void;
}

/** Sends a request to every other instance and answers their answers (what came, even on a timeout). */
export function askInstances<Ev extends keyof InstanceEvents>(
  io: Server<DefaultEventsMap, DefaultEventsMap, InstanceEvents>,
  event: Ev,
  payload: Parameters<InstanceEvents[Ev]>[0],
): Promise<boolean[]> {
  return new Promise((resolve) => {
    // The adapter never calls back when Redis is away (it cannot count the instances and drops the
    // error): past its own request timeout the answer is "no other instance", not a hang.
    const timer = setTimeout(() => resolve([]), INSTANCE_REQUEST_TIMEOUT_MS + 500);
    const done = (_error: Error | null, answers: boolean[]) => {
      clearTimeout(timer);
      resolve(answers ?? []);
    };
    // The typed overloads cannot express a generic event's payload; the callers above fix it.
    (io.serverSideEmit as (ev: string, arg: unknown, ack: typeof done) => boolean)(event, payload, done);
  });
}

/** How long an instance has to answer a request from another (through Redis). */
export const INSTANCE_REQUEST_TIMEOUT_MS = 2000;

/**
 * socket.io for open consoles. A socket authenticates on connect with its token (auth.token, the
 * auth_token query value, or the Authentication-Token header) and joins one room per permission it
 * holds; nothing is broadcast to everyone. With REDIS_URL, events fan out across instances.
 */
export async function attachConsoleSockets(
  server: HttpServer,
  deps: {
    auth: AuthService;
    hub: AgentHub;
    recordings: RecordingsService;
    sessions: SessionsService;
    log: FastifyBaseLogger;
    redisUrl: string | undefined;
    /** Live rights: each socket is re-checked when rights change, and closed when they are gone. */
    rights?: LiveRights;
    policy?: AccessPolicy;
    audit?: AuditRepository;
    /** The recordings' rows, for re-checking watches (which host each session is on). */
    recordingRows?: { find(id: string): Promise<{ id: string; agentId: string | null } | undefined> };
  },
): Promise<{ io: Server; redisReady: (() => boolean) | undefined; close: () => Promise<void> }> {
  const io = new Server<DefaultEventsMap, DefaultEventsMap, InstanceEvents>(server, {
    serveClient: false,
    destroyUpgrade: false,
    // A connection that never sends its token is closed after 10 s (socket.io's default: 45 s).
    connectTimeout: 10_000,
    transports: ['websocket', 'polling'],
  });
  const pair = deps.redisUrl ? await connectRedisPair(deps.redisUrl, deps.log) : undefined;
  const redis = pair?.pub;
  const subscriber = pair?.sub;
  if (redis && subscriber) {
    // An instance that does not answer a request within 2 s counts as not holding the session.
    // Loaded only with REDIS_URL, as the client is (redis-clients.ts).
    const { createAdapter } = await import('@socket.io/redis-adapter');
    io.adapter(createAdapter(redis, subscriber, { requestsTimeout: INSTANCE_REQUEST_TIMEOUT_MS }));
    io.on('gatehouse:terminate', ({ id, by }, ack) => ack(deps.recordings.terminateHere(id, by)));
    io.on('gatehouse:watch', (id, ack) => ack(deps.recordings.watch(id)));
    deps.recordings.setRemoteTerminator(async (id, by) =>
      (await askInstances(io, 'gatehouse:terminate', { id, by })).includes(true),
    );
  }
  io.use((socket, next) => {
    const raw =
      (socket.handshake.auth as { token?: unknown }).token ??
      socket.handshake.query.auth_token ??
      socket.handshake.headers['authentication-token'];
    const token = typeof raw === 'string' ? raw : undefined;
    if (!token) return next(new Error('Sign in first: the socket needs a token.'));
    // Session tokens only: a one-shot authorization answers one HTTP call and opens no socket.
    deps.auth.authenticateConnection(token).then(
      (result) => {
        if ('refused' in result) return next(new Error(result.refused));
        const { principal } = result;
        socket.data = {
          token,
          tokenHash: principal.tokenHash,
          userId: principal.userId,
          email: principal.email,
          expiresAt: principal.expiresAt.getTime(),
        } satisfies ConsoleSocketData;
        // With the Redis adapter joining is asynchronous; the socket is admitted once it has joined.
        Promise.resolve(socket.join(['signed-in', ...[...principal.permissions].map(permissionRoom)])).then(
          () => {
            // Signed in: its socket no longer counts against its address's cap of connections.
            markAuthenticated(socket.request.socket);
            next();
          },
          (error: unknown) => next(error instanceof Error ? error : new Error(String(error))),
        );
      },
      (error: unknown) => next(error instanceof Error ? error : new Error(String(error))),
    );
  });
  const onAgentChanged = (agentId: string) => {
    io.to(permissionRoom('list-host')).emit(CONSOLE_EVENTS.agentsChanged, { id: agentId });
    io.to('signed-in').emit(CONSOLE_EVENTS.countsChanged);
  };
  deps.hub.on('changed', onAgentChanged);
  /** The socket's rooms as its principal's rights stand now: permission rooms follow, lost watches end. */
  const recheck = async (
    socket: { data: unknown; rooms: Set<string>; id: string },
    holder: { expiresAt?: number | undefined },
    source: string,
  ): Promise<void> => {
    const live = io.of('/').sockets.get(socket.id);
    if (!live) return;
    const { token, userId, email } = socket.data as ConsoleSocketData;
    const result = await deps.auth.authenticateConnection(token, userId);
    if ('refused' in result) {
      // Signed out, expired, or the user deleted: every watch ends, then the socket, in words.
      for (const room of live.rooms)
        if (room.startsWith(RECORDING_ROOM))
          live.emit(SESSION_EVENTS.attachError, {
            recording_id: room.slice(RECORDING_ROOM.length),
            message: result.refused,
          });
      live.emit(CONSOLE_EVENTS.revoked, { message: result.refused });
      live.disconnect(true);
      await deps.audit?.append({
        actorId: userId,
        actor: email,
        action: REVOKED_ACTION,
        outcome: 'denied',
        source,
        detail: { connection: 'console socket', why: result.refused },
      });
      return;
    }
    const principal: Principal = result.principal;
    holder.expiresAt = principal.expiresAt.getTime();
    const rooms = new Set(['signed-in', ...[...principal.permissions].map(permissionRoom)]);
    for (const room of [...live.rooms]) if (room.startsWith('perm:') && !rooms.has(room)) await live.leave(room);
    await live.join([...rooms]);
    for (const room of [...live.rooms]) {
      if (!room.startsWith(RECORDING_ROOM)) continue;
      const id = room.slice(RECORDING_ROOM.length);
      const row = await deps.recordingRows?.find(id);
      const may = row && deps.policy ? await deps.policy.mayWatch(principal, row, { source }) : row !== undefined;
      if (may) continue;
      await live.leave(room);
      live.emit(SESSION_EVENTS.attachError, {
        recording_id: id,
        message: 'You may no longer watch this session: your roles or groups changed.',
      });
    }
  };
  /** A watcher fell behind the live output: it leaves every session it watches and is told why. */
  const dropWatches = (socket: Socket) => {
    for (const room of [...socket.rooms]) {
      if (!room.startsWith(RECORDING_ROOM)) continue;
      // Rooms are this instance's own (the Redis adapter too): leaving takes effect at once.
      detach(deps.log, 'detaching a watcher', Promise.resolve(socket.leave(room)));
      socket.emit(WATCH_DROPPED_EVENT, {
        recording_id: room.slice(RECORDING_ROOM.length),
        message: WATCH_DROPPED_MESSAGE,
      });
    }
    deps.log.info(
      { user: (socket.data as ConsoleSocketData).email },
      'a watcher fell behind the live output and was detached',
    );
  };
  const guard = new WatchGuard(SESSION_EVENTS.output, dropWatches);
  io.on('connection', (socket) => {
    const source = socket.handshake.address;
    const unguard = guard.track(socket);
    socket.on('disconnect', unguard);
    const data = socket.data as ConsoleSocketData;
    const holder: { tokenHash: string; expiresAt?: number | undefined; recheck: () => Promise<void> } = {
      tokenHash: data.tokenHash,
      expiresAt: data.expiresAt,
      recheck: () => recheck(socket, holder, source),
    };
    const untrack = deps.rights?.track(holder);
    socket.on('disconnect', () => untrack?.());
    // Watching a session: the permission and the object (may this user reach that host?) are
    // checked on every attach, with the principal as of now.
    socket.on(SESSION_EVENTS.attach, async (raw: unknown) => {
      const request = AttachRequest.safeParse(raw);
      if (!request.success)
        return socket.emit(SESSION_EVENTS.attachError, { message: 'recording_id must be a session id' });
      try {
        const auth = await deps.auth.authenticateConnection((socket.data as ConsoleSocketData).token);
        if ('refused' in auth) return socket.emit(SESSION_EVENTS.attachError, { message: auth.refused });
        const { principal } = auth;
        holder.expiresAt = principal.expiresAt.getTime();
        const row = await deps.sessions.forWatcher(principal, request.data.recording_id);
        // A socket that has not read what waits for it gets no more (a catch-up would only add to it).
        if (guard.behind(socket))
          return socket.emit(WATCH_DROPPED_EVENT, { recording_id: row.id, message: WATCH_DROPPED_MESSAGE });
        await socket.join(recordingRoom(row.id));
        // Chunks go out only for watched sessions; the instance running it learns of this watcher
        // before the replay is read, so no chunk falls between the replay and the live ones.
        if (!row.endedOn && !deps.recordings.watch(row.id) && redis) await askInstances(io, 'gatehouse:watch', row.id);
        if (request.data.replay) {
          const { upto, events } = await deps.sessions.replay(row);
          socket.emit(SESSION_EVENTS.output, { recording_id: row.id, seq: 0, upto, events } satisfies RecordOut);
        }
        if (row.endedOn) socket.emit(SESSION_EVENTS.terminated, { recording_id: row.id });
      } catch (error) {
        socket.emit(SESSION_EVENTS.attachError, { message: (error as Error).message });
      }
    });
    socket.on('new_record_detach', async (raw: { recording_id?: unknown }) => {
      if (typeof raw?.recording_id === 'string') await socket.leave(recordingRoom(raw.recording_id));
    });
  });
  // One broadcast per chunk: socket.io encodes it once for the whole room (the guard checks each
  // watcher's backlog as the chunk goes out to it).
  const onLive = (id: string, chunk: LiveChunk) => {
    io.to(recordingRoom(id)).emit(SESSION_EVENTS.output, {
      recording_id: id,
      seq: chunk.seq,
      events: chunk.events,
    } satisfies RecordOut);
  };
  const onEnded = (id: string) => {
    io.to(recordingRoom(id)).emit(SESSION_EVENTS.terminated, { recording_id: id });
    io.to('signed-in').emit(CONSOLE_EVENTS.countsChanged);
  };
  // A session starting changes the sessions count: open lists reload (they hear no other event).
  const onStarted = () => io.to('signed-in').emit(CONSOLE_EVENTS.countsChanged);
  deps.recordings.on('live', onLive);
  deps.recordings.on('ended', onEnded);
  deps.recordings.on('started', onStarted);
  return {
    io,
    // Readiness: both clients of the adapter connected (undefined without REDIS_URL).
    redisReady: redis && subscriber ? () => redis.isReady && subscriber.isReady : undefined,
    close: async () => {
      deps.hub.off('changed', onAgentChanged);
      deps.recordings.off('live', onLive);
      deps.recordings.setRemoteTerminator(undefined);
      deps.recordings.off('ended', onEnded);
      deps.recordings.off('started', onStarted);
      // A Redis that is away: its clients are dropped first, so the adapter's unsubscribes are never
      // answered instead of failing unhandled, and nothing waits for Redis to come back.
      for (const client of [redis, subscriber]) if (client && !client.isReady && client.isOpen) client.destroy();
      await io.close();
      if (redis && subscriber) await Promise.all([closeRedisClient(redis), closeRedisClient(subscriber)]);
    },
  };
}
