import type { Writable } from 'node:stream';
import type { ClientChannel, ServerChannel } from 'ssh2';
import { TRACING, trace } from '@gatehouse/tunnel';
import type { Recorder } from '../recordings/recorder.js';

/** Sees a file-transfer channel's bytes as they pass (transfers/sftp-observer.ts, scp-observer.ts). */
export interface ChannelTap {
  fromClient(data: Buffer): void;
  fromHost(data: Buffer): void;
  /** The channel closed. */
  end(): void;
  /**
   * True once the observer gave up on a stream it could not parse and the channel's bytes are to
   * be recorded like a terminal's from then on (an exec that only looked like scp must not hide
   * its output).
   */
  readonly passthrough?: boolean;
}

/** What a wired channel reports to, besides the other side. */
export interface Wiring {
  /** Output (and input, when captured) goes here; undefined records nothing. */
  recorder: Recorder | undefined;
  /**
   * A file-transfer channel: its stdout and stdin (file bytes) go to the tap and never into the
   * terminal recording; only its stderr is recorded.
   */
  tap?: ChannelTap;
  captureInput: boolean;
  /** Called on every byte either way: the idle timeout counts from the last one. */
  touch: () => void;
}

/**
 * Bytes the client's TCP socket may hold unsent before output to it is held. The SSH window alone
 * does not bound them: a client may grant a window of 4 GiB and then stop reading.
 */
export const CLIENT_SOCKET_LIMIT = 1024 * 1024;

/** The client connection's socket behind a gateway channel (ssh2 keeps it as the connection's `_sock`). */
function clientSocket(channel: ServerChannel): Writable | undefined {
  const sock = (channel as unknown as { _client?: { _sock?: Writable } })._client?._sock;
  return sock && typeof sock.writableLength === 'number' ? sock : undefined;
}

/**
 * Calls `pause` while the client's socket holds more than CLIENT_SOCKET_LIMIT unsent, and `resume`
 * once it drained; answers the check to run after each write to the channel.
 */
export function holdWhileClientBehind(channel: ServerChannel, pause: () => void, resume: () => void): () => void {
  const sock = clientSocket(channel);
  let held = false;
  return () => {
    if (held || !sock || sock.writableLength <= CLIENT_SOCKET_LIMIT) return;
    held = true;
    pause();
    sock.once('drain', () => {
      held = false;
      resume();
    });
  };
}

/**
 * Joins the user's channel to the host's, both ways, with backpressure: the host's output pauses
 * while the user's side is full (its SSH window, or its TCP socket), and the user's input while the
 * host's side is full; either pauses while the recorder's disk falls behind. Memory stays bounded
 * and no byte is lost.
 */
export function wireChannel(
  user: ServerChannel,
  host: ClientChannel,
  { recorder, captureInput, touch, tap }: Wiring,
): void {
  touch(); // setting the session up took time, but none of it was the user's idleness
  const holds = new Set<string>();
  const hold = (why: string) => {
    holds.add(why);
    host.pause();
    host.stderr.pause();
  };
  const release = (why: string) => {
    holds.delete(why);
    if (holds.size === 0) {
      host.resume();
      host.stderr.resume();
    }
  };
  const clientBehind = holdWhileClientBehind(
    user,
    () => hold('client'),
    () => release('client'),
  );
  const forward = (target: NodeJS.WritableStream, record: Recorder | undefined, data: Buffer) => {
    touch();
    record?.output(data);
    const taken = target.write(data);
    if (TRACING) trace('g.user', 0, data.length);
    if (!taken && !holds.has('user')) {
      hold('user');
      user.once('drain', () => release('user'));
    }
    clientBehind();
    if (record?.needsDrain && !holds.has('disk')) {
      hold('disk');
      record.once('drain', () => release('disk'));
    }
  };
  if (tap) host.on('data', (data: Buffer) => tap.fromHost(data));
  const outputRecorder = () => (tap && !tap.passthrough ? undefined : recorder);
  if (TRACING) host.on('data', (data: Buffer) => trace('g.host', 0, data.length));
  host.on('data', (data: Buffer) => forward(user, outputRecorder(), data));
  host.stderr.on('data', (data: Buffer) => forward(user.stderr, recorder, data));
  // The user's input, the same way: it waits while the host's side is full, and (when input is
  // recorded) while the recorder's disk falls behind.
  const inputHolds = new Set<string>();
  const holdInput = (why: string, until: { once(event: 'drain', listener: () => void): unknown }) => {
    if (inputHolds.has(why)) return;
    inputHolds.add(why);
    user.pause();
    until.once('drain', () => {
      inputHolds.delete(why);
      if (inputHolds.size === 0) user.resume();
    });
  };
  const inputRecorder = () => (captureInput && !(tap && !tap.passthrough) ? recorder : undefined);
  user.on('data', (data: Buffer) => {
    if (TRACING) trace('g.in', 0, data.length);
    touch();
    // Seen before it is passed on: the host cannot answer a request the observer has not seen.
    tap?.fromClient(data);
    const record = inputRecorder();
    record?.input(data);
    // After the host's side ended (it went away), what the user still types has nowhere to go.
    if (host.writable && !host.write(data)) holdInput('host', host);
    if (record?.needsDrain) holdInput('disk', record);
  });
  user.on('end', () => {
    if (host.writable) host.end();
  });
  // Ending the user's channel sends EOF and CLOSE (ssh2 does both for a server channel), after
  // which no exit status can follow; sshd may send its EOF before the exit status, so the user's
  // side ends only once both are known (or the host's channel closed without a status).
  let exited = false;
  let ended = false;
  const endWhenDone = () => {
    if (exited && ended) user.end();
  };
  host.on('exit', (code: number | null, signal?: string) => {
    if (signal) user.exit(signal.replace(/^SIG/, ''), false, '');
    else user.exit(code ?? 0);
    exited = true;
    endWhenDone();
  });
  host.on('end', () => {
    ended = true;
    endWhenDone();
  });
  host.on('close', () => {
    exited = ended = true;
    endWhenDone();
  });
  user.on('close', () => host.close());
  if (tap) {
    let tapEnded = false;
    const endTap = () => {
      if (tapEnded) return;
      tapEnded = true;
      tap.end();
    };
    host.on('close', endTap);
    user.on('close', endTap);
  }
}
