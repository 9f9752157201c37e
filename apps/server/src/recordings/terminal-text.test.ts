import { describe, expect, it } from 'vitest';
import { InputLines, MAX_LINE, type TextLine, TerminalLines } from './terminal-text.js';

/** The lines of output events fed one by one. */
function lines(...events: (string | [number, string])[]): TextLine[] {
  const out: TextLine[] = [];
  const terminal = new TerminalLines((line) => out.push(line));
  events.forEach((e, i) => (typeof e === 'string' ? terminal.write(i, e) : terminal.write(e[0], e[1])));
  terminal.end();
  return out;
}
const texts = (...events: string[]) => lines(...events).map((l) => l.text);

describe('terminal output as lines', () => {
  it('drops SGR colours, CSI private modes and cursor keys', () => {
    expect(texts('\x1b[1;31mrm\x1b[0m -rf /tmp/x\r\n\x1b[?2004h$ ')).toEqual(['rm -rf /tmp/x', '$']);
  });

  it('drops OSC titles ended by BEL or ST, and DCS, APC, PM strings', () => {
    expect(texts('\x1b]0;user@host: ~\x07ok\x1b]2;t\x1b\\ done\x1bPq#0;1\x1b\\\x1b_apc\x1b\\\x1b^pm\x1b\\\n')).toEqual([
      'ok done',
    ]);
  });

  it('drops charset designations and other ESC sequences with an intermediate', () => {
    expect(texts('\x1b(Blin\x1b)0e\x1b#8 one\x1b%G\x1b=\x1b>\n')).toEqual(['line one']);
  });

  it('drops the 8-bit C1 forms of CSI and OSC', () => {
    expect(texts('\u009b31mred\u009bm \u009d0;title\u0007text\n')).toEqual(['red text']);
  });

  it('carries a sequence split across events over to the next', () => {
    expect(texts('cat /etc/sh', '\x1b[', '0', ';1m', 'adow\x1b]0;ti', 'tle\x07\r\n')).toEqual(['cat /etc/shadow']);
  });

  it('keeps what a carriage return overwrote last: a progress bar shows its final state', () => {
    expect(texts('copy  10%\rcopy  55%\rcopy 100%\r\n')).toEqual(['copy 100%']);
    expect(texts('long line here\rshort\n')).toEqual(['shortline here']);
  });

  it('erases in line and moves the cursor as the terminal would', () => {
    expect(texts('abcdef\r\x1b[Kxyz\n')).toEqual(['xyz']);
    expect(texts('abcdef\x1b[3Dxy\n')).toEqual(['abcxyf']);
    expect(texts('rm -rx\bf /\n')).toEqual(['rm -rf /']);
    expect(texts('a\x1b[5Cb\n')).toEqual(['a     b']);
    expect(texts('abcdef\r\x1b[2Pgh\n')).toEqual(['ghef']);
    expect(texts('ab\x1b[10Gc\n')).toEqual(['ab       c']);
  });

  it('ends a line where a full-screen program positions the cursor', () => {
    expect(texts('\x1b[2J\x1b[1;1Htop - 10:00\x1b[2;1HTasks: 5\x1b[3;1H')).toEqual(['top - 10:00', 'Tasks: 5']);
  });

  it('gives each line the time of the event that wrote its last character', () => {
    expect(lines([1, 'rm '], [2.5, '-rf /tmp\r\n'], [3, 'next'])).toEqual([
      { t: 2.5, text: 'rm -rf /tmp' },
      { t: 3, text: 'next' },
    ]);
  });

  it('turns tabs into spaces and skips blank lines, other controls draw nothing', () => {
    expect(texts('a\tb\x07\x0e\x0f\n\n   \r\n\x00c\n')).toEqual(['a       b', 'c']);
  });

  it('cuts a very long line into pieces of MAX_LINE', () => {
    const out = texts(`${'x'.repeat(MAX_LINE * 2 + 5)}\n`);
    expect(out.map((l) => l.length)).toEqual([MAX_LINE, MAX_LINE, 5]);
  });

  it('never emits an escape or control character, whatever bytes arrive', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const alphabet = [
      '\x1b',
      '[',
      ']',
      '\x07',
      '\\',
      '\r',
      '\n',
      '\b',
      'a',
      'Z',
      '1',
      ';',
      '?',
      '\u009b',
      'é',
      'P',
      '(',
    ];
    for (let round = 0; round < 200; round += 1) {
      const events = Array.from({ length: 20 }, () =>
        Array.from({ length: 30 }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''),
      );
      // eslint-disable-next-line no-control-regex
      for (const line of texts(...events)) expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    }
  });
});

describe('typed input as lines', () => {
  const typed = (...events: string[]) => {
    const out: TextLine[] = [];
    const input = new InputLines((line) => out.push(line));
    events.forEach((e, i) => input.write(i, e));
    input.end();
    return out.map((l) => l.text);
  };

  it('applies backspace and ends lines at Enter', () => {
    expect(typed('rm -rx', '\x7ff /', 'var\r', 'ls\r')).toEqual(['rm -rf /var', 'ls']);
  });

  it('drops arrow keys, bracketed paste marks and lines cancelled with Ctrl-C or Ctrl-U', () => {
    expect(typed('\x1b[A\x1b[Bsecret\x03', 'abc\x15', '\x1b[200~cat /etc/shadow\x1b[201~\r')).toEqual([
      'cat /etc/shadow',
    ]);
  });
});
