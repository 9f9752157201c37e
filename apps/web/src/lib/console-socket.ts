import { io, type Socket } from 'socket.io-client';

/** Events the server sends to open consoles. */
export const SOCKET_EVENTS = {
  agentsChanged: 'agents_changed',
  countsChanged: 'navigation_counts_changed',
} as const;

/**
 * The console's socket to the server (same origin, path /socket.io), authenticated with the
 * session token. A plain class: the hook in app/providers subscribes and cleans up.
 */
export class ConsoleSocket {
  private readonly socket: Socket;

  constructor(token: string) {
    const base = new URL('.', window.location.href);
    this.socket = io(base.origin, {
      path: `${base.pathname.replace(/\/$/, '')}/socket.io`,
      auth: { token },
      query: { auth_token: token },
      transports: ['websocket', 'polling'],
      reconnectionDelayMax: 10_000,
    });
  }

  /** Calls the listener on an event; answers a function that stops listening. */
  on(event: string, listener: (...args: unknown[]) => void): () => void {
    this.socket.on(event, listener);
    return () => {
      this.socket.off(event, listener);
    };
  }

  /** Sends an event to the server (queued by socket.io until the socket connects). */
  emit(event: string, payload: unknown): void {
    this.socket.emit(event, payload);
  }

  /** Closes the socket. */
  close(): void {
    this.socket.close();
  }
}
