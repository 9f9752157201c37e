import { Duplex } from 'node:stream';

/** What the adapter needs of a `ws` WebSocket. */
export interface WebSocketLike {
  readyState: number;
  send(data: Buffer | string, callback?: (error?: Error) => void): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  pause(): void;
  resume(): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

const OPEN = 1;
const END = 'end';

/**
 * A WebSocket as a byte stream with TCP-like half-close: binary messages carry bytes, the text
 * message "end" says the sender will send no more, and the socket closes once both sides ended.
 * Backpressure: a full reader pauses the socket; a write completes when the socket took it.
 */
export class WebSocketDuplex extends Duplex {
  private remoteEnded = false;
  private localEnded = false;

  constructor(private readonly ws: WebSocketLike) {
    super({ allowHalfOpen: true });
    ws.on('message', (data, isBinary) => {
      if (!isBinary) {
        if (data.toString() === END) this.peerEnded();
        return;
      }
      if (!this.push(data)) ws.pause();
    });
    ws.on('close', () => {
      if (!this.remoteEnded) this.destroy(new Error('the tunnel connection closed'));
    });
    ws.on('error', (error) => this.destroy(error));
  }

  private peerEnded(): void {
    this.remoteEnded = true;
    this.push(null);
    if (this.localEnded) this.ws.close(1000);
  }

  override _read(): void {
    this.ws.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.ws.readyState !== OPEN) return callback(new Error('the tunnel connection is closed'));
    this.ws.send(chunk, (error) => callback(error ?? null));
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.localEnded = true;
    if (this.ws.readyState === OPEN) this.ws.send(END);
    if (this.remoteEnded) this.ws.close(1000);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.ws.readyState === OPEN) this.ws.close(error ? 1011 : 1000);
    callback(error);
  }
}
