import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CAST_BYTES, type CastEvent, castEvent } from '@gatehouse/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { signManifest } from './chain.js';
import { FLUSH_MS, type LiveChunk, Recorder } from './recorder.js';
import { POOLED_BYTES, recorderWorker } from './recorder-worker.js';
import { CastFile, castTail, searchCast } from './cast-file.js';
import { extractText } from './text-extract.js';
import { verifyRecording } from './verify.js';

const pair = generateKeyPairSync('ed25519');
const privateKey = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicKey = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gh-recorder-'));
});

async function eventsOf(file: string): Promise<CastEvent[]> {
  return (await fs.readFile(file, 'utf8'))
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CastEvent);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Signs a manifest of what the recorder says it wrote, and verifies the file against it. */
function verifySigned(
  file: string,
  id: string,
  recorder: Recorder,
  totals: { bytes: number; chunks: number; chainHead: string },
) {
  const manifest = signManifest(
    {
      recording_id: id,
      started_on: new Date().toISOString(),
      ended_on: new Date().toISOString(),
      header_sha256: recorder.headerSha256,
      bytes: totals.bytes,
      chunks: totals.chunks,
      chain_head: totals.chainHead,
      end_reason: 'client-closed',
    },
    privateKey,
  );
  return verifyRecording(file, manifest, publicKey);
}

describe('Recorder', () => {
  it('writes a long burst of output as lines of at most 16 KiB each, the same text at the same time', async () => {
    // Issue 19: one event of 128 KiB or more made strings above V8's limit for ordinary heap objects,
    // each then mapped and unmapped on its own (12 ms of the recording thread per MiB, not 2).
    const file = path.join(dir, 'burst.cast');
    const recorder = await Recorder.create(file, crypto.randomUUID(), { width: 80, height: 24 });
    const ascii = 'gatehouse bulk output 0123456789 "quoted" \\\n'.repeat(7_000); // ~300 KiB
    const accented = 'été à la plage \u001b[1mgras\u001b[0m\r\n'.repeat(6_000); // two-byte characters split across pieces
    recorder.output(Buffer.from(ascii));
    recorder.output(Buffer.from(accented));
    await recorder.finish();
    const events = await eventsOf(file);
    expect(events.map((e) => e[2]).join('')).toBe(ascii + accented);
    expect(events.every((e) => e[1] === 'o')).toBe(true);
    // A piece may carry up to three bytes of a character the previous one began.
    for (const e of events) expect(Buffer.byteLength(e[2])).toBeLessThanOrEqual(16 * 1024 + 3);
    expect(events.length).toBeGreaterThan((Buffer.byteLength(ascii) + Buffer.byteLength(accented)) / (16 * 1024));
    // Merged within 5 ms, so the pieces of a burst share its time.
    expect(new Set(events.map((e) => e[0])).size).toBeLessThan(events.length / 4);
  });

  it('writes every output line as JSON.stringify would, whatever the bytes: text, controls, quotes, NULs, split characters', async () => {
    // Issue 19: ASCII output is escaped by WebAssembly (json-escape.wat), everything else by
    // JSON.stringify; the file must not tell which did it.
    const file = path.join(dir, 'exact.cast');
    const recorder = await Recorder.create(file, crypto.randomUUID(), { width: 80, height: 24 });
    // Every ASCII byte among letters, sparse enough to stay text (not base64), and densely.
    const sparse = Buffer.from(Array.from({ length: 128 * 8 * 20 }, (_, i) => (i % 8 ? 0x61 : (i / 8) % 128)));
    const dense = Buffer.from(Array.from({ length: 128 * 40 }, (_, i) => (i * 7) % 128));
    const parts = [
      Buffer.from('plain "quoted" \\ back\tslash\r\n'.repeat(2_000)),
      Buffer.from('\u001b[1;31mred\u001b[0m \u0007bell\u007f\r\n'.repeat(2_000)),
      sparse,
      dense,
      Buffer.alloc(40_000), // NULs: stored as base64
      Buffer.from('\u001b[1;31mred\u001b[0m été 日本 \r\n'.repeat(1_500)),
      Buffer.from([0xe6, 0x97]), // a character split across chunks
      Buffer.from([0xa5, 0x41, 0x42]),
      Buffer.from('x'.repeat(70_000) + '\n'),
    ];
    for (const part of parts) {
      recorder.output(part);
      await recorder.flush();
    }
    await recorder.finish();
    const lines = (await fs.readFile(file, 'utf8')).split('\n').slice(1, -1);
    for (const line of lines) expect(JSON.stringify(JSON.parse(line))).toBe(line);
    const events = lines.map((line) => JSON.parse(line) as [number, string, string]);
    const out = Buffer.concat(
      events.map((e) => (e[1] === CAST_BYTES ? Buffer.from(e[2], 'base64') : Buffer.from(e[2], 'utf8'))),
    );
    expect(out.equals(Buffer.concat(parts))).toBe(true);
    expect(events.some((e) => e[1] === CAST_BYTES)).toBe(true);
  });

  it('keeps every byte of a flood, in fewer events than packets, under a chain that verifies', async () => {
    const id = crypto.randomUUID();
    const file = path.join(dir, 'flood.cast');
    const recorder = await Recorder.create(file, id, { width: 80, height: 24 });
    // Text with escapes, quotes and a two-byte character split across packets.
    const text = 'line "quoted" \\ \u001b[1mbold\u001b[0m été\r\n'.repeat(40_000);
    const bytes = Buffer.from(text);
    let packets = 0;
    for (let at = 0; at < bytes.length; at += 1001) {
      recorder.output(bytes.subarray(at, at + 1001));
      packets += 1;
      if (recorder.needsDrain) await new Promise((r) => recorder.once('drain', r));
    }
    const totals = await recorder.finish();
    const events = await eventsOf(file);
    expect(events.map((e) => e[2]).join('')).toBe(text);
    expect(events.every((e) => e[1] === 'o')).toBe(true);
    expect(events.length).toBeLessThan(packets / 4);
    const times = events.map((e) => e[0]);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(await verifySigned(file, id, recorder, totals)).toEqual({ intact: true, problems: [] });
  });

  it('fills chunk memory the thread gave back only after the thread wrote it: two recordings keep their own bytes', async () => {
    // Two recordings interleaved, many chunks each, sharing the one pool: a buffer handed out again
    // while the thread still read it would put one session's bytes into the other's file.
    const files = [path.join(dir, 'pool-a.cast'), path.join(dir, 'pool-b.cast')];
    const recorders = await Promise.all(
      files.map((f) => Recorder.create(f, crypto.randomUUID(), { width: 80, height: 24 })),
    );
    const texts = ['alpha session output\r\n', 'BRAVO SESSION OUTPUT\r\n'].map((line) => line.repeat(150_000)); // ~3 MiB each
    const bytes = texts.map((t) => Buffer.from(t));
    for (let at = 0; at < bytes[0]!.length; at += 32 * 1024) {
      for (const [i, recorder] of recorders.entries()) {
        recorder.output(bytes[i]!.subarray(at, at + 32 * 1024));
        if (recorder.needsDrain) await new Promise((r) => recorder.once('drain', r));
      }
    }
    await Promise.all(recorders.map((r) => r.flush()));
    // The written chunks' memory came back to be filled again.
    expect(recorderWorker().pooled).toBeGreaterThan(0);
    expect(recorderWorker().buffer(100_000).buffer.byteLength).toBe(POOLED_BYTES);
    // A few bytes typed get memory of their own size, not a pooled buffer.
    expect(recorderWorker().buffer(10).buffer.byteLength).toBe(10);
    await Promise.all(recorders.map((r) => r.finish()));
    for (const [i, file] of files.entries()) {
      expect((await eventsOf(file)).map((e) => e[2]).join('')).toBe(texts[i]);
    }
  });

  it('writes bulk chunks past the page cache and typing through it, the file byte-exact under a chain that verifies', async () => {
    // Issue 19: a recording is written once and read rarely; bulk chunks go to the disk directly
    // (O_DIRECT, from aligned memory, rewriting the file's last partial block in front of each),
    // while a few bytes typed stay buffered. Mixed in every order, with ends inside blocks, the file
    // must hold exactly what was recorded.
    const id = crypto.randomUUID();
    const file = path.join(dir, 'direct.cast');
    const recorder = await Recorder.create(file, id, { width: 80, height: 24 });
    const before = recorderWorker().directWrites;
    const parts = [
      'ls -l\r\n',
      'total 0 "quoted" \\ été\r\n'.repeat(9_001), // ~230 KiB, ends inside a block
      '$ ',
      'x',
      '\u001b[1mbold\u001b[0m line\r\n'.repeat(7_777),
      'bye\r\n',
    ];
    for (const part of parts) {
      recorder.output(Buffer.from(part));
      await recorder.flush();
    }
    const direct = recorderWorker().directWrites - before;
    const totals = await recorder.finish();
    const events = await eventsOf(file);
    expect(events.map((e) => e[2]).join('')).toBe(parts.join(''));
    expect((await fs.stat(file)).size).toBe(totals.bytes);
    // The two bulk chunks went past the cache (where the file system allows it: Linux, ext4 here).
    if (process.platform === 'linux') expect(direct).toBe(2);
    expect(await verifySigned(file, id, recorder, totals)).toEqual({ intact: true, problems: [] });
  });

  it('stores output that is not text as base64 bytes ("b"), every byte kept, readable by the readers', async () => {
    const id = crypto.randomUUID();
    const file = path.join(dir, 'binary.cast');
    const recorder = await Recorder.create(file, id, { width: 80, height: 24 });
    recorder.output(Buffer.from('$ head -c 1M /dev/zero; printf marker\r\n'));
    await recorder.flush();
    // NUL bytes (6 bytes each as a JSON string) and bytes that are not UTF-8 (U+FFFD as text).
    const binary = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < binary.length; i += 4096) binary[i + 1] = 0xff;
    for (let at = 0; at < binary.length; at += 32768) {
      recorder.output(binary.subarray(at, at + 32768));
      if (recorder.needsDrain) await new Promise((r) => recorder.once('drain', r));
    }
    await recorder.flush();
    recorder.output(Buffer.from('marker été\r\n'));
    const totals = await recorder.finish();
    const lines = (await fs.readFile(file, 'utf8')).split('\n').slice(1).filter(Boolean);
    const raw = lines.map((l) => JSON.parse(l) as [number, string, string]);
    expect(raw[0]![1]).toBe('o');
    expect(raw.at(-1)).toEqual([expect.any(Number), 'o', 'marker été\r\n']);
    const stored = raw.filter((e) => e[1] === CAST_BYTES);
    expect(stored.length).toBeGreaterThan(0);
    expect(raw.slice(1, -1).every((e) => e[1] === CAST_BYTES)).toBe(true);
    // Every byte, as it was (not U+FFFD), in about 4/3 of its size instead of about 6 times.
    expect(Buffer.concat(stored.map((e) => Buffer.from(e[2], 'base64'))).equals(binary)).toBe(true);
    expect((await fs.stat(file)).size).toBeLessThan(1.5 * binary.length);
    // What readers make of it: the 'o' events it stands for, decoded as a terminal would.
    const events = raw.map((e) => castEvent(e)!);
    expect(events.every((e) => e[1] === 'o')).toBe(true);
    expect(events.map((e) => e[2]).join('')).toBe(
      `$ head -c 1M /dev/zero; printf marker\r\n${new TextDecoder().decode(binary)}marker été\r\n`,
    );
    const tail = await castTail(file, 64 * 1024);
    expect(tail.events.every((e) => e[1] === 'o')).toBe(true);
    expect(tail.events.at(-1)![2]).toBe('marker été\r\n');
    const cast = await CastFile.open(file);
    try {
      expect((await searchCast(cast, 'marker été')).hits).toHaveLength(1);
    } finally {
      await cast.close();
    }
    const text = await extractText(file);
    // The text index reads it too: the line the binary output ran into ends with the text after it.
    expect(text.entries.at(-1)).toEqual({
      t: expect.any(Number) as number,
      kind: 'output',
      text: expect.stringMatching(/marker été$/) as string,
    });
    expect(await verifySigned(file, id, recorder, totals)).toEqual({ intact: true, problems: [] });
  });

  it('keeps output apart when it is further apart than a few milliseconds, and input apart from output', async () => {
    const file = path.join(dir, 'apart.cast');
    const recorder = await Recorder.create(file, crypto.randomUUID(), { width: 80, height: 24 });
    recorder.output(Buffer.from('$ '));
    // 40 ms asleep, 30 ms asserted: a timer may fire a little early by the recorder's clock.
    await sleep(40);
    recorder.input(Buffer.from('l'));
    recorder.input(Buffer.from('s'));
    recorder.output(Buffer.from('ls'));
    recorder.resize(100, 30);
    await recorder.finish();
    const events = await eventsOf(file);
    expect(events.map((e) => [e[1], e[2]])).toEqual([
      ['o', '$ '],
      ['i', 'ls'],
      ['o', 'ls'],
      ['r', '100x30'],
    ]);
    expect(events[1]![0] - events[0]![0]).toBeGreaterThanOrEqual(0.03);
  });

  it('appends on its own after FLUSH_MS, and hands chunks to live watchers only once watched', async () => {
    const file = path.join(dir, 'live.cast');
    const recorder = await Recorder.create(file, crypto.randomUUID(), { width: 80, height: 24 });
    const live: LiveChunk[] = [];
    recorder.on('live', (chunk: LiveChunk) => live.push(chunk));
    recorder.output(Buffer.from('before anyone watched\r\n'));
    await sleep(FLUSH_MS + 100);
    expect((await fs.readFile(`${file}.chain`, 'utf8')).split('\n').filter(Boolean)).toHaveLength(1);
    expect(live).toEqual([]);
    recorder.watched();
    recorder.output(Buffer.from('watched\r\n'));
    await recorder.flush();
    // Watchers get the chunk with the number it has on disk (replays stop at a number; live goes on).
    expect(live).toEqual([{ seq: 2, events: [[expect.any(Number) as number, 'o', 'watched\r\n']] }]);
    await recorder.finish();
    expect((await eventsOf(file)).map((e) => e[2])).toEqual(['before anyone watched\r\n', 'watched\r\n']);
  });
});
