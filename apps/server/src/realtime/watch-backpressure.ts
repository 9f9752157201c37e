import { SESSION_EVENTS } from '@gatehouse/contracts';
import type { Socket } from 'socket.io';

const MiB = 1024 * 1024;

/** Sent to a watcher dropped for falling behind (WatchDropped); it may attach again. */
export const WATCH_DROPPED_EVENT = SESSION_EVENTS.watchDropped;
/** What a dropped watcher is told. */
export const WATCH_DROPPED_MESSAGE = 'You fell behind the live output and were detached; reattach to continue.';

/** Bounds on what live output may wait, unsent, for watchers (the tests lower them). */
export const WATCH_LIMITS = {
  /** One socket holding more than this, not yet taken by the network, is dropped from its live sessions. */
  socketBytes: 8 * MiB,
  /** All watching sockets together: past this, any of them holding more than `shareBytes` is dropped too. */
  totalBytes: 64 * MiB,
  shareBytes: 1 * MiB,
  /** A dropped socket that has read nothing of what waits for it after this long is disconnected. */
  stalledMs: 30_000,
};

/** What engine.io keeps of a packet it has not yet handed to the transport. */
interface QueuedPacket {
  data?: string | Buffer | ArrayBuffer;
}

/**
 * Bytes queued for a console socket that the network has not taken yet: engine.io's packet buffer
 * (packets waiting for the transport; a polling client's until it polls) plus, over a WebSocket,
 * what the `ws` socket still holds. socket.io has no public figure for this: the first is
 * engine.io's `writeBuffer`, the second the `ws` socket's documented `bufferedAmount`.
 */
export function pendingBytes(socket: Socket): number {
  const conn = socket.conn as unknown as {
    writeBuffer?: QueuedPacket[];
    transport?: { socket?: { bufferedAmount?: unknown } };
  };
  let bytes = 0;
  for (const packet of conn.writeBuffer ?? []) {
    const data = packet.data;
    if (typeof data === 'string') bytes += data.length;
    else if (data) bytes += data.byteLength;
  }
  const buffered = conn.transport?.socket?.bufferedAmount;
  return typeof buffered === 'number' ? bytes + buffered : bytes;
}

/**
 * Closes a console socket at once, dropping what waits for it. A polite close would wait for the
 * buffers to drain (engine.io) or for the client's close frame (30 s in `ws`): a client that reads
 * nothing answers neither. Over a WebSocket the `ws` socket is terminated (its public terminate());
 * a polling client's transport is discarded.
 */
function cutOff(socket: Socket): void {
  const ws = (socket.conn.transport as unknown as { socket?: { terminate?: unknown } }).socket;
  if (ws && typeof ws.terminate === 'function') (ws as { terminate: () => void }).terminate();
  else socket.conn.close(true);
}

/**
 * Keeps what live output may cost in memory bounded whatever a watcher does. Each live chunk is
 * still broadcast once to its room; before the chunk is written to a watching socket, the
 * socket's unsent bytes are checked, and a socket past its bound (or past its share while all
 * watchers together are past theirs) is dropped: `drop` detaches it from its live sessions and
 * tells it why (it hears that once it reads again). A dropped socket that reads nothing at all for
 * `stalledMs` is disconnected, which frees what waits for it.
 */
export class WatchGuard {
  /** Unsent bytes of each tracked socket at its last check. */
  private readonly pending = new Map<Socket, number>();
  private total = 0;
  private readonly stalled = new Map<Socket, NodeJS.Timeout>();

  constructor(
    /** The live output event: only its packets are checked. */
    private readonly liveEvent: string,
    /** Detaches the socket from every live session it watches and tells it why. */
    private readonly drop: (socket: Socket) => void,
  ) {}

  /** Checks this socket before each live chunk from now on; answers the function that stops it. */
  track(socket: Socket): () => void {
    const check = (event: string) => {
      if (event === this.liveEvent) this.check(socket);
    };
    socket.onAnyOutgoing(check);
    return () => {
      socket.offAnyOutgoing(check);
      this.forget(socket);
    };
  }

  /** True when the socket has not yet read what waits for it (an attach now would only add to it). */
  behind(socket: Socket): boolean {
    return pendingBytes(socket) > WATCH_LIMITS.socketBytes / 2;
  }

  private check(socket: Socket): void {
    const bytes = pendingBytes(socket);
    this.total += bytes - (this.pending.get(socket) ?? 0);
    this.pending.set(socket, bytes);
    if (bytes > WATCH_LIMITS.socketBytes) return this.dropNow(socket, bytes);
    if (bytes <= WATCH_LIMITS.shareBytes || this.total <= WATCH_LIMITS.totalBytes) return;
    // Over the total as last seen: count again (figures of sockets that since caught up are stale).
    this.total = 0;
    for (const [other] of this.pending) {
      const now = pendingBytes(other);
      this.pending.set(other, now);
      this.total += now;
    }
    if (this.total > WATCH_LIMITS.totalBytes) this.dropNow(socket, bytes);
  }

  private dropNow(socket: Socket, bytes: number): void {
    this.drop(socket);
    if (this.stalled.has(socket)) return;
    const timer = setTimeout(() => {
      this.stalled.delete(socket);
      // Not one byte read since the drop: nothing will be, and what waits is freed with the socket.
      if (socket.connected && pendingBytes(socket) >= bytes) cutOff(socket);
    }, WATCH_LIMITS.stalledMs);
    timer.unref();
    this.stalled.set(socket, timer);
  }

  private forget(socket: Socket): void {
    this.total -= this.pending.get(socket) ?? 0;
    this.pending.delete(socket);
    clearTimeout(this.stalled.get(socket));
    this.stalled.delete(socket);
  }
}
