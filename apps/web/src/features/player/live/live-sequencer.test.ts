import type { CastEvent } from '@gatehouse/contracts';
import { describe, expect, it } from 'vitest';
import { LiveSequencer } from './live-sequencer';

const id = '00000000-0000-4000-8000-000000000001';
const out = (text: string): CastEvent[] => [[0, 'o', text]];
const chunk = (seq: number, text: string, upto?: number) => ({
  recording_id: id,
  seq,
  events: out(text),
  ...(upto === undefined ? {} : { upto }),
});

describe('live sequencing', () => {
  it('draws the catch-up, then each next chunk once', () => {
    const s = new LiveSequencer();
    expect(s.receive(chunk(0, 'so far', 3))).toEqual({ kind: 'replay', events: out('so far') });
    expect(s.receive(chunk(3, 'old'))).toEqual({ kind: 'none' });
    expect(s.receive(chunk(4, 'a'))).toEqual({ kind: 'append', events: out('a') });
    expect(s.receive(chunk(4, 'a'))).toEqual({ kind: 'none' });
    expect(s.receive(chunk(5, 'b'))).toEqual({ kind: 'append', events: out('b') });
    expect(s.lastSeq).toBe(5);
  });

  it('holds chunks that arrive before the catch-up and adds those it does not include', () => {
    const s = new LiveSequencer();
    expect(s.receive(chunk(6, 'six'))).toEqual({ kind: 'none' });
    expect(s.receive(chunk(5, 'five'))).toEqual({ kind: 'none' });
    expect(s.receive(chunk(0, 'upto five', 5))).toEqual({
      kind: 'replay',
      events: [...out('upto five'), ...out('six')],
    });
    expect(s.lastSeq).toBe(6);
  });

  it('reports a missing chunk and waits for a new catch-up', () => {
    const s = new LiveSequencer();
    s.receive(chunk(0, '', 2));
    expect(s.receive(chunk(4, 'skipped three'))).toEqual({ kind: 'gap', expected: 3, got: 4 });
    expect(s.waiting).toBe(true);
    expect(s.receive(chunk(5, 'early'))).toEqual({ kind: 'none' });
    expect(s.receive(chunk(0, 'all of it', 5))).toEqual({ kind: 'replay', events: out('all of it') });
    expect(s.receive(chunk(6, 'on'))).toEqual({ kind: 'append', events: out('on') });
  });

  it('finds a gap among the chunks held before the catch-up', () => {
    const s = new LiveSequencer();
    s.receive(chunk(9, 'nine'));
    expect(s.receive(chunk(0, 'upto seven', 7))).toEqual({ kind: 'gap', expected: 8, got: 9 });
  });
});
