import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CastEvent } from '@gatehouse/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { castTime, chunksOf, writeRecording } from './import.js';
import { Recorder } from './recorder.js';
import { verifyRecording } from './verify.js';

const pair = generateKeyPairSync('ed25519');
const privateKey = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicKey = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gh-import-'));
});

/** The events of each chunk of a recording, read back through its chain file. */
async function chunksOnDisk(file: string): Promise<CastEvent[][]> {
  const bytes = await fs.readFile(file);
  const lines = (await fs.readFile(`${file}.chain`, 'utf8')).split('\n').filter(Boolean);
  return lines.map((line) => {
    const [, at, length] = line.split(' ').map(Number);
    return bytes
      .subarray(at, (at ?? 0) + (length ?? 0))
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CastEvent);
  });
}

describe('writeRecording', () => {
  it('writes the same bytes, chain and totals as the gateway’s Recorder for the same events', async () => {
    const id = crypto.randomUUID();
    const live = path.join(dir, 'recorded.cast');
    const recorder = await Recorder.create(live, id, { width: 100, height: 30, title: 'ann@example.test on web-01' });
    recorder.output(Buffer.from('ann@web-01:~$ '));
    await recorder.flush();
    recorder.output(Buffer.from('ls\r\n'));
    recorder.resize(120, 40);
    recorder.output(Buffer.from('bin  etc  \u00e9t\u00e9.txt\r\n'));
    await recorder.flush();
    recorder.output(Buffer.from('\u001b[1;32mdone\u001b[0m\r\n'));
    const totals = await recorder.finish();

    const header = JSON.parse((await fs.readFile(live, 'utf8')).split('\n')[0] ?? '') as { timestamp: number };
    const imported = path.join(dir, 'imported.cast');
    const endedOn = new Date();
    const written = await writeRecording(
      imported,
      id,
      { width: 100, height: 30, startedOn: new Date(header.timestamp * 1000), title: 'ann@example.test on web-01' },
      await chunksOnDisk(live),
      privateKey,
      { endedOn, reason: 'client-closed' },
    );

    expect(totals.chunks).toBe(3);
    expect(await fs.readFile(imported)).toEqual(await fs.readFile(live));
    expect(await fs.readFile(`${imported}.chain`, 'utf8')).toBe(await fs.readFile(`${live}.chain`, 'utf8'));
    expect(written).toMatchObject({ bytes: totals.bytes, chunks: totals.chunks, chainHead: totals.chainHead });
    expect(written.headerSha256).toBe(recorder.headerSha256);
    expect(written.manifest).toMatchObject({ recording_id: id, ended_on: endedOn.toISOString() });
    expect(await verifyRecording(imported, written.manifest!, publicKey)).toEqual({ intact: true, problems: [] });
  });

  it('keeps a day-long sparse session one chunk per event, intact until a byte changes', async () => {
    const events: CastEvent[] = [];
    for (let minute = 0; minute <= 26 * 60; minute += 1)
      events.push([castTime(minute * 60 + 0.123456789), 'o', `${String(minute).padStart(4, '0')} load 0.42\r\n`]);
    const chunks = chunksOf(events);
    expect(chunks).toHaveLength(events.length);
    const file = path.join(dir, 'long.cast');
    const startedOn = new Date(Date.now() - 27 * 3600_000);
    const written = await writeRecording(
      file,
      crypto.randomUUID(),
      { width: 80, height: 24, startedOn },
      chunks,
      privateKey,
      {
        endedOn: new Date(),
        reason: 'client-closed',
      },
    );
    const manifest = written.manifest!;
    expect(await verifyRecording(file, manifest, publicKey)).toEqual({ intact: true, problems: [] });
    const lastLine = (await fs.readFile(file, 'utf8')).trimEnd().split('\n').at(-1);
    expect(JSON.parse(lastLine ?? '')).toEqual([93_600.123457, 'o', '1560 load 0.42\r\n']);

    const bytes = await fs.readFile(file);
    bytes[bytes.length - 5] = 0x39;
    await fs.writeFile(file, bytes);
    const tampered = await verifyRecording(file, manifest, publicKey);
    expect(tampered.intact).toBe(false);
    expect(tampered.problems).toContain(`chunk ${events.length} was changed`);
  });

  it('groups what arrives before the flush timer fires into one chunk, as the Recorder does', () => {
    const chunks = chunksOf([
      [0.01, 'o', 'a'],
      [0.09, 'o', 'b'],
      [0.1, 'o', 'c'],
      [0.11, 'o', 'd'],
    ]);
    expect(chunks.map((c) => c.map((e) => e[2]).join(''))).toEqual(['abc', 'd']);
  });

  it('leaves a live recording without a manifest and never overwrites an existing one', async () => {
    const file = path.join(dir, 'live.cast');
    const header = { width: 80, height: 24, startedOn: new Date() };
    const written = await writeRecording(file, crypto.randomUUID(), header, [[[0.5, 'o', '$ ']]], undefined);
    expect(written.manifest).toBeUndefined();
    expect(written.chunks).toBe(1);
    await expect(fs.access(`${file}.manifest.json`)).rejects.toThrow();
    await expect(writeRecording(file, crypto.randomUUID(), header, [], undefined)).rejects.toThrow(/EEXIST/);
  });
});
