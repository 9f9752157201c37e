import { CAST_BYTES, type CastEvent, castEvent } from '@gatehouse/contracts';
import { CastFile } from './cast-file.js';
import { InputLines, type TextLine, TerminalLines } from './terminal-text.js';

/** What an indexed line is: terminal output, typed input, a command, or a transferred file's path. */
export type TextKind = 'output' | 'input' | 'command' | 'file';

/** One line of a recording's text, at a time in seconds. */
export interface TextEntry {
  t: number;
  kind: TextKind;
  text: string;
}

/**
 * Most text indexed per recording, by kind (characters). Output stops being indexed past its cap
 * (the rest of the file is still read for commands and file transfers, which are small); a
 * recording that reached a cap is marked truncated. 4 MiB of output is about 100,000 lines.
 */
export const TEXT_CAPS: Readonly<Record<TextKind, number>> = {
  output: 4 * 1024 * 1024,
  input: 1024 * 1024,
  command: 256 * 1024,
  file: 1024 * 1024,
};

/** The text of one recording, and whether a cap cut it. */
export interface ExtractedText {
  entries: TextEntry[];
  truncated: boolean;
  /** Bytes of the cast file read. */
  bytes: number;
}

// The kind of an event from its first bytes, without parsing lines that will not be used.
const EVENT_KIND = /^\[\s*-?[\d.eE+-]+\s*,\s*"([a-z])"/;

/**
 * Reads a cast file in bounded memory (CastFile streams its lines) and answers its text: output
 * and input as lines (escape sequences stripped), commands from channel markers, and file paths
 * from file-transfer markers. `size` limits the read to the complete part of the file.
 */
export async function extractText(file: string, size?: number): Promise<ExtractedText> {
  const entries: TextEntry[] = [];
  const used: Record<TextKind, number> = { output: 0, input: 0, command: 0, file: 0 };
  let truncated = false;
  const add = (kind: TextKind, line: TextLine) => {
    if (used[kind] >= TEXT_CAPS[kind]) {
      truncated = true;
      return;
    }
    used[kind] += line.text.length;
    entries.push({ t: line.t, kind, text: line.text });
  };
  const output = new TerminalLines((line) => add('output', line));
  const input = new InputLines((line) => add('input', line));
  const cast = await CastFile.open(file, size);
  try {
    for await (const { line, cut } of cast.lines()) {
      if (cut) continue;
      const type = EVENT_KIND.exec(line.subarray(0, 40).toString('latin1'))?.[1];
      // Output stored as bytes (CAST_BYTES) is output.
      const kind = type === CAST_BYTES ? 'o' : type;
      if (kind === 'o' && used.output >= TEXT_CAPS.output) {
        truncated = true;
        continue;
      }
      if (kind !== 'o' && kind !== 'i' && kind !== 'm') continue;
      if (kind === 'i' && used.input >= TEXT_CAPS.input) continue;
      let event: CastEvent | undefined;
      try {
        event = castEvent(JSON.parse(line.toString('utf8')));
      } catch {
        continue;
      }
      if (!event) continue;
      const [t, , data] = event;
      if (kind === 'o') output.write(t, data);
      else if (kind === 'i') input.write(t, data);
      else marker(t, data, add);
    }
    output.end();
    input.end();
    return { entries, truncated, bytes: cast.size };
  } finally {
    await cast.close();
  }
}

/** A marker event's text: a channel's command, a file transfer's paths (helper formats in the issue 16 brief). */
function marker(t: number, data: string, add: (kind: TextKind, line: TextLine) => void): void {
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch {
    return;
  }
  if (!body || typeof body !== 'object') return;
  const m = body as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? clean(value) : '');
  if (m.type === 'channel') {
    const command = text(m.command);
    if (command) add('command', { t, text: command });
  } else if (m.type === 'file-transfer') {
    const path = text(m.path);
    const target = text(m.target);
    if (path) add('file', { t, text: path });
    if (target && target !== path) add('file', { t, text: target });
  }
}

// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROLS = /[\x00-\x1f\x7f-\x9f]+/g;

/** A command or path as one line of at most 2,000 characters, without control characters. */
export function clean(value: string): string {
  return value.replace(CONTROLS, ' ').trim().slice(0, 2000);
}
