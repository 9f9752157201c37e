import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CastEvent } from '@gatehouse/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { signManifest } from './chain.js';
import { FLUSH_MS, type LiveChunk, Recorder } from './recorder.js';
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

describe('Recorder', () => {
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
    expect(await verifyRecording(file, manifest, publicKey)).toEqual({ intact: true, problems: [] });
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
