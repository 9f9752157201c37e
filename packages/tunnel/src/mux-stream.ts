import { Duplex } from 'node:stream';
import { STREAM_WINDOW, STREAM_WINDOW_OFFERED } from '@gatehouse/contracts';

/** Largest tunnel payload in one WebSocket frame. */
export const MAX_FRAME_BYTES = 64 * 1024;
/**
 * Bytes a stream holds unacknowledged before the far side counts as ignoring the window: a
 * writer may overshoot its window by the chunk it was handed, so some slack is allowed.
 */
export const RECEIVE_LIMIT = 4 * STREAM_WINDOW_OFFERED;

/** The window to send with toward a peer that named `named` (undefined: it named none). */
export function sendWindow(named: number | undefined): number {
  if (named === undefined) return STREAM_WINDOW;
  return Math.min(Math.max(named, STREAM_WINDOW), STREAM_WINDOW_OFFERED);
}

/** How a stream reaches the other side of the WebSocket. */
export interface MuxLink {
  /** Sends bytes of this stream. */
  sendData(stream: number, data: Buffer): void;
  /** Acknowledges bytes the local side has taken. */
  sendAck(stream: number, bytes: number): void;
  /** Tells the other side this side will send no more (half-close). */
  sendEnd(stream: number): void;
  /** Tells the other side the stream is closed both ways. */
  sendClose(stream: number): void;
  /**
   * Streams open on this link (this one included). Both ends see the same streams, so both agree
   * whether a stream has the link to itself; a link that does not say counts as shared.
   */
  streamsOpen?(): number;
}

/**
 * One tunnel stream over the shared WebSocket, as a Duplex with TCP-like half-close. Writing
 * waits while a window of bytes is unacknowledged; incoming bytes are acknowledged only once
 * the reader has taken them, so a slow reader slows the far writer instead of filling memory.
 */
export class MuxStream extends Duplex {
  private inFlight = 0;
  private waitingWrite: (() => void) | undefined;
  private unacked = 0;
  private remoteEnded = false;
  private closeSent = false;
  /** Bytes pushed to the reader and taken, to be acknowledged together at the end of this loop turn. */
  private toAck = 0;
  private ackTimer: NodeJS.Immediate | undefined;
  /** Unacknowledged bytes this side sends before it waits while the stream is alone on its link. */
  readonly window: number;
  /** Whether the far side named a window (it is of this version, and takes STREAM_WINDOW_OFFERED). */
  private readonly peerNamed: boolean;

  /** `peerWindow`: the window the far side named when the stream opened (undefined: none). */
  constructor(
    readonly id: number,
    private readonly link: MuxLink,
    peerWindow?: number,
  ) {
    super({ allowHalfOpen: true });
    this.window = sendWindow(peerWindow);
    this.peerNamed = peerWindow !== undefined;
  }

  /** Whether this stream has its link to itself (and its far side takes the larger window). */
  private alone(): boolean {
    return this.peerNamed && this.link.streamsOpen?.() === 1;
  }

  /**
   * Unacknowledged bytes this side sends before it waits now: the named window while the stream is
   * alone on its link, else STREAM_WINDOW, so no other session's small frames queue behind more.
   */
  get sendLimit(): number {
    return this.alone() ? this.window : STREAM_WINDOW;
  }

  /**
   * Taken bytes are acknowledged once this many have gathered, not per keystroke: a quarter of the
   * window the far side sends with now (by the same rule as sendLimit), so a writer that fills its
   * window is always answered, and typing sends no acks at all. Never more than STREAM_WINDOW, the
   * least any writer sends before it waits, so no writer waits for an ack that never comes.
   */
  get ackThreshold(): number {
    return Math.min(STREAM_WINDOW, (this.alone() ? STREAM_WINDOW_OFFERED : STREAM_WINDOW) / 4);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.closeSent) {
      callback(new Error('the tunnel stream is closed'));
      return;
    }
    // Frames stay small whatever the writer hands over, so no WebSocket message grows large.
    for (let offset = 0; offset < chunk.length; offset += MAX_FRAME_BYTES) {
      this.link.sendData(this.id, chunk.subarray(offset, offset + MAX_FRAME_BYTES));
    }
    this.inFlight += chunk.length;
    if (this.inFlight < this.sendLimit) callback();
    else this.waitingWrite = () => callback();
  }

  override _read(): void {
    // The reader wants more: acknowledge what it has taken so the far side may send again.
    if (this.unacked > 0) {
      this.link.sendAck(this.id, this.unacked);
      this.unacked = 0;
    }
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.closeSent) this.link.sendEnd(this.id);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.closeSent) {
      this.closeSent = true;
      this.link.sendClose(this.id);
    }
    this.waitingWrite = undefined;
    if (this.ackTimer) clearImmediate(this.ackTimer);
    this.ackTimer = undefined;
    callback(error);
  }

  /**
   * Bytes arrived from the far side. Answers false, keeping nothing, when they would leave more
   * than RECEIVE_LIMIT unacknowledged: the far side ignores the window (the caller decides).
   */
  receive(data: Buffer): boolean {
    if (this.destroyed || this.remoteEnded) return true;
    if (this.unacked + data.length > RECEIVE_LIMIT) return false;
    if (this.push(data)) this.ackSoon(data.length);
    else this.unacked += data.length;
    return true;
  }

  /**
   * Acknowledges taken bytes once ackThreshold of them have gathered, at the end of that loop turn
   * (issue 19: an ack is a JSON message that wakes the far side and that it parses and validates; per
   * keystroke, two of them crossed the agent's socket). A writer waits only with its window in
   * flight, so at least that much reaches this side and is taken (acknowledged here) or held
   * (acknowledged by _read once the reader takes it): no writer waits for an ack that never comes.
   */
  private ackSoon(bytes: number): void {
    this.toAck += bytes;
    if (this.toAck < this.ackThreshold) return;
    this.ackTimer ??= setImmediate(() => {
      this.ackTimer = undefined;
      const taken = this.toAck;
      this.toAck = 0;
      if (taken > 0 && !this.closeSent) this.link.sendAck(this.id, taken);
    });
  }

  /**
   * The far side took `bytes` of what this side sent. Answers false when it acknowledges more
   * than is in flight (a far side that counts right never does).
   */
  acknowledge(bytes: number): boolean {
    const valid = bytes <= this.inFlight;
    this.inFlight = Math.max(0, this.inFlight - bytes);
    if (this.inFlight < this.sendLimit && this.waitingWrite) {
      const resume = this.waitingWrite;
      this.waitingWrite = undefined;
      resume();
    }
    return valid;
  }

  /** The far side will send no more: the readable side ends once what arrived is read. */
  peerEnded(): void {
    if (this.remoteEnded) return;
    this.remoteEnded = true;
    this.push(null);
  }

  /**
   * The far side closed. After its end, what arrived stays readable and this side finishes
   * gracefully; without one, the stream was aborted.
   */
  peerClosed(): void {
    this.closeSent = true;
    if (this.remoteEnded) {
      if (!this.writableEnded) this.end();
    } else {
      // An abort: readers that listen for errors hear why; nobody else is made to crash.
      this.destroy(this.listenerCount('error') > 0 ? new Error('the far side closed the tunnel stream') : undefined);
    }
  }
}
