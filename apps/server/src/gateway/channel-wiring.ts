import type { ClientChannel, ServerChannel } from 'ssh2';
import type { Recorder } from '../recordings/recorder.js';

/** What a wired channel reports to, besides the other side. */
export interface Wiring {
  /** Output (and input, when captured) goes here; undefined records nothing (SFTP). */
  recorder: Recorder | undefined;
  captureInput: boolean;
  /** Called on every byte either way: the idle timeout counts from the last one. */
  touch: () => void;
}

/**
 * Joins the user's channel to the host's, both ways, with backpressure: the host's output pauses
 * while the user's side is full or while the recorder's disk falls behind, so memory stays bounded
 * and no output is lost.
 */
export function wireChannel(user: ServerChannel, host: ClientChannel, { recorder, captureInput, touch }: Wiring): void {
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
  const forward = (target: NodeJS.WritableStream) => (data: Buffer) => {
    touch();
    recorder?.output(data);
    if (!target.write(data) && !holds.has('user')) {
      hold('user');
      user.once('drain', () => release('user'));
    }
    if (recorder?.needsDrain && !holds.has('disk')) {
      hold('disk');
      recorder.once('drain', () => release('disk'));
    }
  };
  host.on('data', forward(user));
  host.stderr.on('data', forward(user.stderr));
  user.on('data', (data: Buffer) => {
    touch();
    if (captureInput) recorder?.input(data);
  });
  user.pipe(host);
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
}
