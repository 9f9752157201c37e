import type { Duplex } from 'node:stream';
import type { ServerChannel } from 'ssh2';
import type { Recorder } from '../recordings/recorder.js';
import { holdWhileClientBehind } from './channel-wiring.js';

/**
 * What `ssh -L` may name as its destination: the host itself, and nothing else. Whatever of these
 * the client names, the bytes go to 127.0.0.1:port on the host, opened by its agent (apps/agent
 * relay.ts), so a forward never reaches another machine on the host's network.
 */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', 'localhost.localdomain']);

/** Why the destination of a forward is refused, or undefined when it names the host itself. */
export function forwardDestinationProblem(destination: string, hostname: string): string | undefined {
  const name = destination.trim().toLowerCase();
  if (LOOPBACK_NAMES.has(name) || name === hostname.toLowerCase()) return undefined;
  return (
    `forwarding reaches only ${hostname} itself: name 127.0.0.1, localhost or ${hostname} as the destination ` +
    `(asked for ${destination.slice(0, 100)})`
  );
}

/** "web-01:8080": how a forward's target is shown in the recording and in Sessions. */
export function forwardTarget(hostname: string, port: number): string {
  return `${hostname}:${port}`;
}

/**
 * One forwarded channel (`ssh -L`): the client's channel joined to a stream through the host's
 * agent, with backpressure both ways (pipe, and the client's socket). Its opening, byte counts each
 * way (every second while they change) and closing are written into the connection's recording,
 * never the bytes.
 */
export class ForwardedChannel {
  private toHost = 0;
  private toClient = 0;
  private reportedHost = 0;
  private reportedClient = 0;
  private readonly openedAt = Date.now();
  private readonly meter: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly channel: ServerChannel,
    private readonly stream: Duplex,
    private readonly recorder: Recorder,
    /** "#2 to web-01:8080" */
    private readonly label: string,
    touch: () => void,
    private readonly onClosed: (forward: ForwardedChannel) => void,
  ) {
    this.note(`forward ${label} opened`);
    channel.on('data', (d: Buffer) => {
      this.toHost += d.length;
      touch();
    });
    stream.on('data', (d: Buffer) => {
      this.toClient += d.length;
      touch();
    });
    channel.pipe(stream);
    stream.pipe(channel);
    // pipe() waits for the channel's SSH window only; the client's socket is checked too.
    const clientBehind = holdWhileClientBehind(
      channel,
      () => stream.pause(),
      () => stream.resume(),
    );
    stream.on('data', clientBehind);
    channel.on('error', () => stream.destroy());
    stream.on('error', () => channel.close());
    // The client closed its side: the host's side goes too. The host's side closed: what it sent
    // is flushed to the client (pipe ended the channel), then the channel closes.
    channel.on('close', () => {
      stream.destroy();
      this.close();
    });
    stream.on('close', () => {
      channel.end();
      this.close();
    });
    this.meter = setInterval(() => this.report(), 1000);
    this.meter.unref();
  }

  /** Ends the forward now (the session was terminated or ended): both sides are closed. */
  terminate(): void {
    this.close();
    this.stream.destroy();
    this.channel.close();
  }

  private report(): void {
    if (this.toHost === this.reportedHost && this.toClient === this.reportedClient) return;
    this.reportedHost = this.toHost;
    this.reportedClient = this.toClient;
    this.note(`forward ${this.label}: ${this.toHost} bytes to the host, ${this.toClient} bytes back so far`);
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.meter);
    const seconds = ((Date.now() - this.openedAt) / 1000).toFixed(1);
    this.note(
      `forward ${this.label} closed after ${seconds} s: ${this.toHost} bytes to the host, ${this.toClient} bytes back`,
    );
    this.onClosed(this);
  }

  private note(text: string): void {
    this.recorder.output(Buffer.from(`\r\n[gatehouse] ${text}\r\n`));
  }
}
