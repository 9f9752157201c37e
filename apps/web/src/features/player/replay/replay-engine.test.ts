import { describe, expect, it } from 'vitest';
import { ReplayEngine, type ReplaySource, type SeekAnswer, type TerminalSink } from './replay-engine';

const encoder = new TextEncoder();

/** A recording of `hours`, one output line every `every` seconds, as an asciicast v2 file. */
function makeCast(hours: number, every: number) {
  const header = '{"version":2,"width":80,"height":24}\n';
  const lines: string[] = [];
  const times: number[] = [];
  for (let t = 0; t <= hours * 3600; t += every) {
    lines.push(`${JSON.stringify([t, 'o', `tick ${String(t)} ä\r\n`])}\n`);
    times.push(t);
  }
  const headerBytes = encoder.encode(header).length;
  const offsets: number[] = [];
  let at = headerBytes;
  for (const line of lines) {
    offsets.push(at);
    at += encoder.encode(line).length;
  }
  return { bytes: encoder.encode(header + lines.join('')), times, offsets, eventsStart: headerBytes };
}

/** Serves the file in ranges as the server does, counting bytes, and answers /seek by binary search. */
function source(cast: ReturnType<typeof makeCast>) {
  const served = { bytes: 0, requests: [] as [number, number][] };
  const api: ReplaySource = {
    fetchRange: (start, end) => {
      served.bytes += end - start;
      served.requests.push([start, end]);
      return Promise.resolve(cast.bytes.slice(start, end));
    },
    seek: (t): Promise<SeekAnswer> => {
      let lo = 0;
      let hi = cast.times.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((cast.times[mid] ?? 0) < t) lo = mid + 1;
        else hi = mid;
      }
      const index = Math.min(lo, cast.times.length);
      return Promise.resolve({
        t: cast.times[Math.min(index, cast.times.length - 1)] ?? 0,
        offset: cast.offsets[index] ?? cast.bytes.length,
        size: cast.bytes.length,
        events_start: cast.eventsStart,
        duration: cast.times.at(-1) ?? 0,
      });
    },
  };
  return { api, served };
}

/** Keeps what the player wrote since the last reset, like a terminal's screen and scrollback. */
function terminal(): TerminalSink & { text: string; resets: number; size: string } {
  return {
    text: '',
    resets: 0,
    size: '',
    reset() {
      this.text = '';
      this.resets += 1;
    },
    resize(cols, rows) {
      this.size = `${String(cols)}x${String(rows)}`;
    },
    write(data) {
      this.text += data;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function engineFor(cast: ReturnType<typeof makeCast>, windowBytes = 64 * 1024) {
  let now = 0;
  const { api, served } = source(cast);
  const sink = terminal();
  const engine = new ReplayEngine(api, { now: () => now, windowBytes, autoTick: false });
  const run = async (wallMs: number, stepMs = 50) => {
    for (let spent = 0; spent < wallMs; spent += stepMs) {
      now += stepMs;
      engine.tick();
      await settle();
    }
  };
  return { engine, sink, served, run };
}

describe('replay engine', () => {
  it('draws the first frame from the first window of a 24-hour recording', async () => {
    const cast = makeCast(24, 2);
    expect(cast.bytes.length).toBeGreaterThan(1_000_000);
    const { engine, sink, served } = engineFor(cast);
    await engine.start(sink);
    expect(engine.getState()).toMatchObject({ status: 'ready', duration: 86_400, position: 0 });
    expect(sink.size).toBe('80x24');
    expect(sink.text).toBe('tick 0 ä\r\n');
    await settle();
    // The header window and perhaps one more ahead: never the whole file.
    expect(served.bytes).toBeLessThanOrEqual(2 * 64 * 1024);
  });

  it('reads ahead at most a window of large events, whatever their count', async () => {
    // Bulk output (seq, cat of a log) comes in few, large events: counting events alone would fetch the file.
    const header = '{"version":2,"width":80,"height":24}\n';
    const lines = Array.from(
      { length: 400 },
      (_, i) => `${JSON.stringify([i / 100, 'o', `${'x'.repeat(4000)}${String(i)}`])}\n`,
    );
    const text = header + lines.join('');
    const offsets: number[] = [];
    let at = encoder.encode(header).length;
    for (const line of lines) {
      offsets.push(at);
      at += encoder.encode(line).length;
    }
    const cast = {
      bytes: encoder.encode(text),
      times: lines.map((_, i) => i / 100),
      offsets,
      eventsStart: encoder.encode(header).length,
    };
    const { engine, sink, served } = engineFor(cast);
    await engine.start(sink);
    for (let i = 0; i < 10; i += 1) await settle();
    expect(cast.bytes.length).toBeGreaterThan(1_500_000);
    expect(served.bytes).toBeLessThanOrEqual(3 * 64 * 1024);
  });

  it('plays in order at the chosen speed and skips idle time', async () => {
    const cast = makeCast(0.05, 15); // 180 s, an event every 15 s
    const { engine, sink, run } = engineFor(cast);
    await engine.start(sink);
    engine.setSkipIdle(false);
    engine.setSpeed(8);
    engine.play();
    await run(2000); // 16 s of recording at 8x
    expect(sink.text).toBe('tick 0 ä\r\ntick 15 ä\r\n');
    engine.setSkipIdle(true);
    engine.setSpeed(1);
    await run(2000); // each 15 s pause now lasts 2 s
    expect(sink.text).toContain('tick 30 ä');
    expect(sink.text).not.toContain('tick 60');
    engine.setSpeed(8);
    await run(4000);
    expect(engine.getState()).toMatchObject({ ended: true, playing: false, position: 180 });
    expect(sink.text).toBe(cast.times.map((t) => `tick ${String(t)} ä\r\n`).join(''));
  });

  it('seeks anywhere in 24 hours with one range of context and a window after it', async () => {
    const cast = makeCast(24, 1);
    const { engine, sink, served } = engineFor(cast);
    await engine.start(sink);
    await settle();
    const before = served.requests.length;
    await engine.seek(20 * 3600 + 0.5);
    expect(served.requests.length).toBe(before + 1);
    const [start, end] = served.requests.at(-1) ?? [0, 0];
    expect(end - start).toBeLessThanOrEqual(128 * 1024 + 64 * 1024 + 1);
    expect(sink.resets).toBe(2);
    // The screen is rebuilt from what came just before, and nothing after the point is drawn yet.
    expect(sink.text.endsWith('tick 72000 ä\r\n')).toBe(true);
    expect(sink.text).not.toContain('tick 72001');
    expect(sink.text.length).toBeGreaterThan(10_000);
    expect(engine.getState()).toMatchObject({ position: 72_000.5, buffering: false });
    expect(engine.getState().seekMs).not.toBeNull();
  });

  it('jumps to a search hit and shows it', async () => {
    const cast = makeCast(1, 1);
    const { engine, sink } = engineFor(cast);
    await engine.start(sink);
    await engine.jumpTo(1234, cast.offsets[1234] ?? 0);
    expect(sink.text.endsWith('tick 1233 ä\r\ntick 1234 ä\r\n')).toBe(true);
    expect(engine.getState().position).toBe(1234);
  });

  it('keeps only the last of two quick seeks', async () => {
    const cast = makeCast(2, 1);
    const { engine, sink } = engineFor(cast);
    await engine.start(sink);
    const first = engine.seek(7000);
    const second = engine.seek(200);
    await Promise.all([first, second]);
    // A seek to an event's time shows that event.
    expect(sink.text.endsWith('tick 199 ä\r\ntick 200 ä\r\n')).toBe(true);
    expect(sink.text).not.toContain('tick 7000');
    expect(engine.getState().position).toBe(200);
  });

  it('plays on across window boundaries without losing or repeating an event', async () => {
    const cast = makeCast(0.5, 0.25); // 7,200 events, many windows of 4 KiB
    const { engine, sink, run } = engineFor(cast, 4 * 1024);
    await engine.start(sink);
    await engine.seek(600);
    engine.setSpeed(8);
    engine.play();
    await run(200_000, 500);
    expect(engine.getState().ended).toBe(true);
    const after = sink.text.slice(sink.text.indexOf('tick 600 ä'));
    const expected = cast.times.filter((t) => t >= 600).map((t) => `tick ${String(t)} ä\r\n`);
    expect(after).toBe(expected.join(''));
  });

  it('seeks from memory, without a request, once a recording has been read whole', async () => {
    const cast = makeCast(0.1, 1); // 361 events, a few KiB
    const { engine, sink, served } = engineFor(cast);
    await engine.start(sink);
    await settle();
    const requests = served.requests.length;
    await engine.seek(200.5);
    expect(served.requests.length).toBe(requests);
    expect(sink.text).toBe(
      cast.times
        .filter((t) => t <= 200)
        .map((t) => `tick ${String(t)} ä\r\n`)
        .join(''),
    );
    expect(engine.getState()).toMatchObject({ position: 200.5, buffering: false });
    await engine.jumpTo(300, cast.offsets[300] ?? 0);
    expect(served.requests.length).toBe(requests);
    expect(sink.text.endsWith('tick 299 ä\r\ntick 300 ä\r\n')).toBe(true);
    expect(engine.getState().seekMs).not.toBeNull();
  });
});
