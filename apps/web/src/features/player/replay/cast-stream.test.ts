import { describe, expect, it } from 'vitest';
import { CastStreamParser, headerSize, parseEventLine, parseHeader, splitHeader } from './cast-stream';

const encoder = new TextEncoder();
const header = '{"version":2,"width":80,"height":24,"timestamp":1700000000}\n';
const lines = ['[0.5,"o","hello "]\n', '[1.25,"o","wörld ✓ 😀\\r\\n"]\n', '[2,"r","100x30"]\n', '[3.5,"i","ls\\r"]\n'];
const file = encoder.encode(header + lines.join(''));

/** Splits the file's events part into ranges at the given byte positions and parses them in order. */
function parseInRanges(cuts: number[]) {
  const { eventsStart } = splitHeader(file);
  const parser = new CastStreamParser(eventsStart);
  const bounds = [eventsStart, ...cuts.filter((c) => c > eventsStart && c < file.length), file.length];
  return bounds.slice(1).flatMap((end, i) => parser.push(file.subarray(bounds[i], end)));
}

describe('cast stream parsing', () => {
  it('leaves marker events (file transfers, channel kinds) out of what the terminal plays', () => {
    const transfer = JSON.stringify({ type: 'file-transfer', protocol: 'scp', op: 'upload', path: '/x' });
    expect(parseEventLine(JSON.stringify([1.5, 'm', transfer]))).toBeNull();
    expect(parseEventLine('[0.1,"m","{\\"type\\":\\"channel\\",\\"kind\\":\\"sftp\\"}"]')).toBeNull();
    expect(parseEventLine('[2,"o","shown"]')).toEqual([2, 'o', 'shown']);
    // Output the recorder stored as bytes (issue 19): played as the 'o' event it stands for.
    const bytes = btoa(String.fromCharCode(0, 0, 0x68, 0xc3, 0xa9, 0xff, 0x0d, 0x0a));
    expect(parseEventLine(`[2.5,"b","${bytes}"]`)).toEqual([2.5, 'o', '\u0000\u0000hé\uFFFD\r\n']);
    expect(parseEventLine('[2.5,"b","not base64!"]')).toBeNull();
  });

  it('reads the header and where the events begin', () => {
    const { header: parsed, eventsStart } = splitHeader(file);
    expect(parsed).toMatchObject({ version: 2, width: 80, height: 24 });
    expect(eventsStart).toBe(encoder.encode(header).length);
  });

  it('parses every event with the byte offset of its line', () => {
    const events = parseInRanges([]);
    expect(events.map((e) => [e.t, e.type, e.data])).toEqual([
      [0.5, 'o', 'hello '],
      [1.25, 'o', 'wörld ✓ 😀\r\n'],
      [2, 'r', '100x30'],
      [3.5, 'i', 'ls\r'],
    ]);
    const text = header + lines.join('');
    for (const event of events) {
      const at = new TextDecoder().decode(file.subarray(event.offset, event.offset + 5));
      expect(text).toContain(at);
      expect(at.startsWith(`[${String(event.t)}`)).toBe(true);
    }
  });

  it('gives the same events whatever the range boundaries, even inside a multi-byte character', () => {
    const whole = parseInRanges([]);
    const emoji = file.indexOf(0xf0);
    expect(emoji).toBeGreaterThan(0);
    for (const cuts of [
      [emoji + 1],
      [emoji + 2, emoji + 3],
      [70, 71, 72, 90],
      Array.from({ length: 200 }, (_, i) => i),
    ])
      expect(parseInRanges(cuts)).toEqual(whole);
  });

  it('keeps a line cut at the end of a range until its rest arrives', () => {
    const { eventsStart } = splitHeader(file);
    const parser = new CastStreamParser(eventsStart);
    const firstLineEnd = eventsStart + encoder.encode(lines[0] ?? '').length;
    expect(parser.push(file.subarray(eventsStart, firstLineEnd + 4))).toHaveLength(1);
    expect(parser.pendingBytes).toBe(4);
    expect(parser.position).toBe(firstLineEnd + 4);
    const rest = parser.push(file.subarray(firstLineEnd + 4));
    expect(rest[0]).toMatchObject({ t: 1.25, offset: firstLineEnd });
    expect(parser.pendingBytes).toBe(0);
  });

  it('drops the cut line at the start of a context window and keeps the whole ones', () => {
    const { eventsStart } = splitHeader(file);
    const parser = new CastStreamParser(eventsStart + 3, true);
    const events = parser.push(file.subarray(eventsStart + 3));
    expect(events.map((e) => e.t)).toEqual([1.25, 2, 3.5]);
  });

  it('draws at 80×24 when the client sent no terminal size', () => {
    expect(headerSize(parseHeader('{"version":2,"width":0,"height":0}'))).toEqual({ cols: 80, rows: 24 });
    expect(headerSize(parseHeader('{"version":2,"width":132,"height":43}'))).toEqual({ cols: 132, rows: 43 });
  });

  it('skips lines that are not events and rejects files that are not asciicast v2', () => {
    expect(parseEventLine('not json')).toBeNull();
    expect(parseEventLine('[1,"x","?"]')).toBeNull();
    expect(parseEventLine('{"t":1}')).toBeNull();
    expect(() => parseHeader('{"version":1,"width":80,"height":24}')).toThrow(/version 2/);
    expect(() => splitHeader(encoder.encode('no newline'))).toThrow(/header/);
  });
});
