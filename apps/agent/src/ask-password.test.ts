import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askPassword } from './ask-password.js';

/** A terminal: input in raw mode while asked, and what was written to it. */
function terminal() {
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    raw: [] as boolean[],
    setRawMode(raw: boolean) {
      this.raw.push(raw);
    },
  });
  const output = new PassThrough();
  let shown = '';
  output.on('data', (c: Buffer) => (shown += c.toString()));
  return { input, output, shown: () => shown };
}

describe('gatehouse tunnel asks for the password', () => {
  it('at a terminal: prompts, echoes nothing typed, honours backspace, restores the terminal', async () => {
    const t = terminal();
    const answer = askPassword('Password for rita@example.test: ', t.input, t.output);
    t.input.write('hunter3');
    t.input.write('\u007f2\r');
    expect(await answer).toBe('hunter2');
    expect(t.shown()).toBe('Password for rita@example.test: \n');
    expect(t.input.raw).toEqual([true, false]);
  });

  it('at a terminal: Ctrl-C cancels instead of signing in with half a password', async () => {
    const t = terminal();
    const answer = askPassword('Password: ', t.input, t.output);
    t.input.write('abc\u0003');
    await expect(answer).rejects.toThrow('Cancelled.');
    expect(t.input.raw).toEqual([true, false]);
  });

  it('from a pipe: the first line, without a prompt', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (c: Buffer) => (shown += c.toString()));
    const answer = askPassword('Password: ', input, output);
    input.end('from-a-file\nsecond line\n');
    expect(await answer).toBe('from-a-file');
    expect(shown).toBe('');
  });
});
