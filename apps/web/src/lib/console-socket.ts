import { signOut } from './session';
import { STORAGE_KEYS, readString } from './storage';
import type { Socket } from 'socket.io-client';

/** Events the server sends to open consoles (the server's CONSOLE_EVENTS). */
export const SOCKET_EVENTS = {
  agentsChanged: 'agents_changed',
  countsChanged: 'navigation_counts_changed',
  /** Sent just before the server closes the socket: token revoked or expired, or user deleted ({message}). */
  revoked: 'access_revoked',
} as const;

/** The server's words from an access_revoked payload, or null when it sent none. */
export function revokedMessage(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const message = (payload as { message?: unknown }).message;
  return typeof message === 'string' && message.trim() !== '' ? message : null;
}

/**
 * The console's socket to the server (same origin, path /socket.io), authenticated with the
 * session token. A plain class: the hook in app/providers subscribes and cleans up.
 * socket.io-client is fetched when the first socket opens (after sign-in), which keeps it out of
 * the console's initial bundle; listeners and messages given before it arrives are applied in order.
 * Every console socket hears the server revoke its access: the console signs out at once (the
 * route guard then shows the sign-in screen, which gives the server's reason).
 */
export class ConsoleSocket {
  private socket: Socket | undefined;
  private closed = false;
  private readonly pending: ((socket: Socket) => void)[] = [];

  constructor(token: string) {
    // Mock data (spec §9) has no server to hear from: no socket, no reconnect noise.
    if (readString(STORAGE_KEYS.useMockData) === 'true') {
      this.closed = true;
      return;
    }
    void import('socket.io-client').then(
      ({ io }) => {
        if (this.closed) return;
        const base = new URL('.', window.location.href);
        const socket = io(base.origin, {
          path: `${base.pathname.replace(/\/$/, '')}/socket.io`,
          auth: { token },
          query: { auth_token: token },
          transports: ['websocket', 'polling'],
          reconnectionDelayMax: 10_000,
        });
        this.socket = socket;
        socket.on(SOCKET_EVENTS.revoked, (payload: unknown) => {
          this.close();
          signOut({ kind: 'revoked', message: revokedMessage(payload) });
        });
        for (const apply of this.pending.splice(0)) apply(socket);
      },
      // The client could not load (offline): no live updates; the screens still refresh on their timers.
      () => undefined,
    );
  }

  private withSocket(apply: (socket: Socket) => void): void {
    if (this.socket) apply(this.socket);
    else if (!this.closed) this.pending.push(apply);
  }

  /** Calls the listener on an event; answers a function that stops listening. */
  on(event: string, listener: (...args: unknown[]) => void): () => void {
    this.withSocket((socket) => socket.on(event, listener));
    return () => {
      this.withSocket((socket) => socket.off(event, listener));
    };
  }

  /** Sends an event to the server (queued by socket.io until the socket connects). */
  emit(event: string, payload: unknown): void {
    this.withSocket((socket) => socket.emit(event, payload));
  }

  /** Closes the socket (or keeps it from opening). */
  close(): void {
    this.closed = true;
    this.pending.length = 0;
    this.socket?.close();
  }
}
