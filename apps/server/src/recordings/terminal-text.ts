/**
 * Terminal bytes as lines of text, for the search index (recordings/text-index.ts). A streaming
 * state machine: escape sequences split across events are carried over, so feeding a recording's
 * output event by event gives the same lines as feeding it whole.
 *
 * What a line is: what stood on one terminal row when the cursor left it. Escape sequences are
 * dropped (CSI, OSC, DCS/SOS/PM/APC strings, charset and other two- or three-byte ESC sequences,
 * their 8-bit C1 forms); a carriage return moves to the line's start and what follows overwrites
 * (a progress bar keeps its last state); backspace and cursor left/right move over the line; erase
 * in line cuts it; a line feed, a vertical move or a cursor position ends it (full-screen programs
 * position the cursor instead of printing newlines). Lines longer than MAX_LINE are cut into pieces.
 */

/** Longest line kept whole; longer ones are emitted in pieces of this size. */
export const MAX_LINE = 2000;

/** A finished line and the time (seconds) of the event that completed it. */
export interface TextLine {
  t: number;
  text: string;
}

type Mode = 'text' | 'esc' | 'esc-intermediate' | 'csi' | 'string' | 'string-esc';

// Characters that need the state machine; anything else is plain text copied in runs.
// eslint-disable-next-line no-control-regex
const SPECIAL = /[\x00-\x1f\x7f-\x9f]/;

/** Output of one terminal as lines (see the file's comment). */
export class TerminalLines {
  private mode: Mode = 'text';
  private line = '';
  private cursor = 0;
  /** Parameters and intermediates of the CSI sequence being read. */
  private csi = '';
  /** Time of the last event that wrote to the current line. */
  private lineTime = 0;

  constructor(private readonly emit: (line: TextLine) => void) {}

  /** True while inside an escape sequence (its end not yet seen). */
  get inSequence(): boolean {
    return this.mode !== 'text';
  }

  /** Feeds one output event's text (already decoded UTF-8) received at time t. */
  write(t: number, data: string): void {
    let i = 0;
    while (i < data.length) {
      if (this.mode === 'text') {
        const rest = data.slice(i);
        const next = rest.search(SPECIAL);
        const run = next < 0 ? rest : rest.slice(0, next);
        if (run) this.put(t, run);
        if (next < 0) return;
        i += next;
        this.control(t, data.charCodeAt(i));
        i += 1;
        continue;
      }
      this.sequence(data.charCodeAt(i));
      i += 1;
    }
  }

  /** Emits what stands on the last line. */
  end(): void {
    this.newline();
  }

  private put(t: number, run: string): void {
    this.lineTime = t;
    if (this.cursor === this.line.length) this.line += run;
    else if (this.cursor > this.line.length) this.line = this.line.padEnd(this.cursor) + run;
    else this.line = this.line.slice(0, this.cursor) + run + this.line.slice(this.cursor + run.length);
    this.cursor += run.length;
    while (this.line.length > MAX_LINE) {
      this.out(this.line.slice(0, MAX_LINE));
      this.line = this.line.slice(MAX_LINE);
      this.cursor = Math.max(0, this.cursor - MAX_LINE);
    }
  }

  private control(t: number, code: number): void {
    switch (code) {
      case 0x0a: // LF
      case 0x0b: // VT
      case 0x0c: // FF
      case 0x84: // IND
      case 0x85: // NEL
        this.newline();
        return;
      case 0x0d: // CR
        this.cursor = 0;
        return;
      case 0x08: // BS
        this.cursor = Math.max(0, this.cursor - 1);
        return;
      case 0x09: // HT: to the next tab stop, as spaces
        this.put(t, ' '.repeat(8 - (this.cursor % 8)));
        return;
      case 0x1b:
        this.mode = 'esc';
        return;
      case 0x9b:
        this.csi = '';
        this.mode = 'csi';
        return;
      case 0x90: // DCS
      case 0x98: // SOS
      case 0x9d: // OSC
      case 0x9e: // PM
      case 0x9f: // APC
        this.mode = 'string';
        return;
      default:
      // Other C0 and C1 controls (BEL, SI, SO, ...) draw nothing.
    }
  }

  private sequence(code: number): void {
    switch (this.mode) {
      case 'esc':
        if (code === 0x5b) {
          this.csi = '';
          this.mode = 'csi';
        } else if (code === 0x5d || code === 0x50 || code === 0x58 || code === 0x5e || code === 0x5f) {
          this.mode = 'string'; // OSC, DCS, SOS, PM, APC: until BEL or ST
        } else if (code >= 0x20 && code <= 0x2f) {
          this.mode = 'esc-intermediate'; // charset (ESC ( B), ESC # 8, ESC % G: one more byte
        } else if (code === 0x1b) {
          this.mode = 'esc';
        } else {
          // ESC D (index), ESC E (next line), ESC M (reverse index) leave the row.
          if (code === 0x44 || code === 0x45 || code === 0x4d) this.newline();
          this.mode = 'text';
        }
        return;
      case 'esc-intermediate':
        if (code < 0x20 || code > 0x2f) this.mode = 'text';
        return;
      case 'csi':
        if (code >= 0x40 && code <= 0x7e) {
          this.mode = 'text';
          this.csiFinal(String.fromCharCode(code));
        } else if (code === 0x1b) {
          this.mode = 'esc';
        } else if (code === 0x18 || code === 0x1a) {
          this.mode = 'text'; // CAN, SUB abort the sequence
        } else if (this.csi.length < 64) {
          this.csi += String.fromCharCode(code);
        }
        return;
      case 'string':
        if (code === 0x07 || code === 0x9c) this.mode = 'text';
        else if (code === 0x1b) this.mode = 'string-esc';
        return;
      case 'string-esc':
        // ESC \ ends the string; any other ESC x ends it too (xterm does the same).
        this.mode = code === 0x5c ? 'text' : 'esc';
        if (code !== 0x5c) this.sequence(code);
        return;
      case 'text':
    }
  }

  private csiFinal(final: string): void {
    // Private sequences (ESC [ ? 25 l, ESC [ > c) and those with intermediates only change modes.
    if (/^[<=>?]/.test(this.csi) || /[ -/]/.test(this.csi)) return;
    const n = Math.max(1, Number.parseInt(this.csi.split(';')[0] ?? '', 10) || 1);
    switch (final) {
      case 'C': // forward
        this.cursor += n;
        return;
      case 'D': // back
        this.cursor = Math.max(0, this.cursor - n);
        return;
      case 'G': // column
      case '`':
        this.cursor = n - 1;
        return;
      case 'K': {
        const mode = Number.parseInt(this.csi, 10) || 0;
        if (mode === 0) this.line = this.line.slice(0, this.cursor);
        else if (mode === 1)
          this.line = ' '.repeat(Math.min(this.cursor, this.line.length)) + this.line.slice(this.cursor);
        else this.line = '';
        return;
      }
      case 'P': // delete characters
        this.line = this.line.slice(0, this.cursor) + this.line.slice(this.cursor + n);
        return;
      case '@': // insert blanks
        if (this.cursor < this.line.length)
          this.line = this.line.slice(0, this.cursor) + ' '.repeat(n) + this.line.slice(this.cursor);
        return;
      case 'X': // erase characters
        if (this.cursor < this.line.length)
          this.line =
            this.line.slice(0, this.cursor) +
            ' '.repeat(Math.min(n, this.line.length - this.cursor)) +
            this.line.slice(this.cursor + n);
        return;
      case 'A': // up, down, next/previous line, position, line position, erase display, scroll
      case 'B':
      case 'E':
      case 'F':
      case 'H':
      case 'f':
      case 'd':
      case 'J':
      case 'S':
      case 'T':
        this.newline();
        return;
      default:
      // SGR (m) and the rest draw no text.
    }
  }

  private newline(): void {
    this.out(this.line);
    this.line = '';
    this.cursor = 0;
  }

  private out(text: string): void {
    const trimmed = text.trimEnd();
    if (trimmed.trim()) this.emit({ t: this.lineTime, text: trimmed });
  }
}

/**
 * What the user typed (input capture) as lines: printable runs are kept, backspace/DEL removes the
 * last character, Ctrl-U and Ctrl-C drop the line, Enter (CR or LF) ends it, escape sequences
 * (arrows, function keys, bracketed paste marks) are dropped. Line editing the shell does
 * (history, completion) is not replayed: that shows in the output lines.
 */
export class InputLines {
  private line = '';
  private lineTime = 0;
  private readonly escapes = new TerminalLines(() => undefined);
  private inEscape = false;

  constructor(private readonly emit: (line: TextLine) => void) {}

  /** Feeds one input event's text received at time t. */
  write(t: number, data: string): void {
    for (let i = 0; i < data.length; i += 1) {
      const code = data.charCodeAt(i);
      if (this.inEscape) {
        // The output parser knows where a sequence ends; reuse it and watch for its return to text.
        this.escapes.write(t, data[i]!);
        this.inEscape = this.escapes.inSequence;
        continue;
      }
      if (code === 0x1b || code === 0x9b) {
        this.escapes.write(t, data[i]!);
        this.inEscape = true;
      } else if (code === 0x0d || code === 0x0a) this.end();
      else if (code === 0x7f || code === 0x08) this.line = this.line.slice(0, -1);
      else if (code === 0x15 || code === 0x03) this.line = '';
      else if (code === 0x09) this.line += ' ';
      else if (code >= 0x20 && !(code >= 0x80 && code <= 0x9f)) {
        this.line += data[i]!;
        this.lineTime = t;
        if (this.line.length >= MAX_LINE) this.end();
      }
    }
  }

  /** Emits the line typed so far. */
  end(): void {
    const text = this.line.trim();
    if (text) this.emit({ t: this.lineTime, text });
    this.line = '';
  }
}
