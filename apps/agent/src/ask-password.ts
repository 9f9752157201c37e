import type { Readable, Writable } from 'node:stream';

/** A terminal's input as the prompt needs it (process.stdin when it is a TTY). */
interface TtyInput extends Readable {
  isTTY?: boolean;
  setRawMode?: (raw: boolean) => unknown;
}

/**
 * The password for `gatehouse tunnel --email` when none was given: typed at a hidden prompt on a
 * terminal (nothing echoed), else the first line of standard input (`… < file`, a pipe). Never
 * written anywhere. Ctrl-C at the prompt ends the process like anywhere else.
 */
export function askPassword(
  prompt: string,
  input: TtyInput = process.stdin,
  output: Writable = process.stderr,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const tty = input.isTTY === true && typeof input.setRawMode === 'function';
    let value = '';
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.off('end', onEnd);
      if (tty) {
        input.setRawMode?.(false);
        output.write('\n');
      }
      input.pause();
      if (error) reject(error);
      else resolve(value);
    };
    const onEnd = () => finish();
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString()) {
        if (char === '\n' || char === '\r' || char === '\u0004') return finish();
        if (tty && char === '\u0003') return finish(new Error('Cancelled.'));
        if (tty && (char === '\u007f' || char === '\b')) value = value.slice(0, -1);
        else value += char;
      }
    };
    if (tty) {
      output.write(prompt);
      input.setRawMode?.(true);
    }
    input.on('data', onData);
    input.on('end', onEnd);
    input.resume();
  });
}
