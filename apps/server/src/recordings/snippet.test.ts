import { describe, expect, it } from 'vitest';
import { snippet, snippetAt } from './snippet.js';

const marked = (s: ReturnType<typeof snippet>) => s.snippet.slice(s.match_start, s.match_start + s.match_length);

describe('search snippets', () => {
  it('start and end at word boundaries, never inside a word', () => {
    const line = `${'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november '.repeat(2)}rm -rf /tmp/build ${'oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu '.repeat(2)}`;
    const s = snippet(line, 'RM -RF', 30);
    expect(marked(s)).toBe('rm -rf');
    expect(s.clipped_start).toBe(true);
    expect(s.clipped_end).toBe(true);
    const words = line.split(/\s+/);
    expect(words).toContain(s.snippet.split(' ')[0]);
    expect(words).toContain(s.snippet.split(' ').at(-1));
    expect(s.snippet.startsWith(' ')).toBe(false);
  });

  it('keeps a short line whole and unclipped', () => {
    const s = snippet('$ rm -rf /tmp/build', 'rm -rf');
    expect(s).toEqual({
      snippet: '$ rm -rf /tmp/build',
      match_start: 2,
      match_length: 6,
      clipped_start: false,
      clipped_end: false,
    });
  });

  it('moves forward to the next word, or back to the start of the word the match is in', () => {
    const line = `${'x'.repeat(100)} supercalifragilistic needle`;
    expect(snippetAt(line, line.indexOf('needle'), 6, { context: 10 })).toMatchObject({
      snippet: 'needle',
      clipped_start: true,
    });
    const inside = `${'x'.repeat(100)} supercalifragilisticneedle`;
    expect(snippetAt(inside, inside.indexOf('needle'), 6, { context: 10 })).toMatchObject({
      snippet: 'supercalifragilisticneedle',
      match_start: 20,
      clipped_start: true,
    });
  });

  it('cuts a word longer than its reach (with the clipped flag for the ellipsis)', () => {
    const line = `${'y'.repeat(300)}needle${'z'.repeat(300)}`;
    const s = snippet(line, 'needle', 20);
    expect(marked(s)).toBe('needle');
    expect(s.clipped_start && s.clipped_end).toBe(true);
  });

  it('treats text carried over from a previous event as cut, and collapses whitespace', () => {
    const text = 'ood\r\na  needle past\r\n2 GiB\r\n';
    const s = snippetAt(text, text.indexOf('needle'), 6, { context: 40, collapse: true, openStart: true });
    expect(s.snippet).toBe('a needle past 2 GiB');
    expect(marked(s)).toBe('needle');
    expect(s.clipped_start).toBe(true);
  });

  it('marks nothing when the text is not found', () => {
    expect(snippet('hello world', 'absent')).toMatchObject({ snippet: 'hello world', match_length: 0 });
  });
});
