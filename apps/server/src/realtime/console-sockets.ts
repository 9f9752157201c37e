import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import type { AuthService } from '../modules/auth/auth.service.js';
import type { AgentHub } from './agent-hub.js';

/** Socket events the console hears. */
export const CONSOLE_EVENTS = {
  agentsChanged: 'agents_changed',
  countsChanged: 'navigation_counts_changed',
} as const;

/** The room of holders of a permission: events go only to those who may see them. */
export const permissionRoom = (permission: string) => `perm:${permission}`;

/**
 * socket.io for open consoles. A socket authenticates on connect with its token (auth.token, the
 * auth_token query value, or the Authentication-Token header) and joins one room per permission it
 * holds; nothing is broadcast to everyone. With REDIS_URL, events fan out across instances.
 */
export async function attachConsoleSockets(
  server: HttpServer,
  deps: { auth: AuthService; hub: AgentHub; log: FastifyBaseLogger; redisUrl: string | undefined },
): Promise<{ io: Server; close: () => Promise<void> }> {
  const io = new Server(server, { serveClient: false, destroyUpgrade: false, transports: ['websocket', 'polling'] });
  const redis = deps.redisUrl ? createClient({ url: deps.redisUrl }) : undefined;
  const subscriber = redis?.duplicate();
  if (redis && subscriber) {
    await Promise.all([redis.connect(), subscriber.connect()]);
    io.adapter(createAdapter(redis, subscriber));
  }
  io.use((socket, next) => {
    const raw =
      (socket.handshake.auth as { token?: unknown }).token ??
      socket.handshake.query.auth_token ??
      socket.handshake.headers['authentication-token'];
    const token = typeof raw === 'string' ? raw : undefined;
    if (!token) return next(new Error('Sign in first: the socket needs a token.'));
    deps.auth.authenticate(token).then(
      (principal) => {
        if (!principal) return next(new Error('Your session has expired. Sign in again.'));
        socket.data = { userId: principal.userId };
        void socket.join(['signed-in', ...[...principal.permissions].map(permissionRoom)]);
        next();
      },
      (error: unknown) => next(error instanceof Error ? error : new Error(String(error))),
    );
  });
  const onAgentChanged = (agentId: string) => {
    io.to(permissionRoom('list-host')).emit(CONSOLE_EVENTS.agentsChanged, { id: agentId });
    io.to('signed-in').emit(CONSOLE_EVENTS.countsChanged);
  };
  deps.hub.on('changed', onAgentChanged);
  return {
    io,
    close: async () => {
      deps.hub.off('changed', onAgentChanged);
      await io.close();
      await Promise.all([redis?.quit(), subscriber?.quit()]);
    },
  };
}
