import { type KeyObject, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The test may use the server's code to make genuine bundles (and forgeries, as an attacker with
// that code would); the verifier under test imports none of it.
import { bundleReadme, evidenceBundle, signVideoStatement, tarHeader } from '../../../server/src/recordings/bundle.js';
import {
  type SignedCheckpoint,
  type SignedManifest,
  chainLine,
  chainNext,
  chainStart,
  keyFingerprint,
  signCheckpoint,
  signManifest,
} from '../../../server/src/recordings/chain.js';
import { type FlushedChunk, Recorder } from '../../../server/src/recordings/recorder.js';
import { verifyRecording } from '../../../server/src/recordings/verify.js';
import { bufferSource, verifyBundle } from './verify-bundle.js';

/** Seeded, so a failure names a mutation that can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { int, pick: <T>(items: readonly T[]): T => items[int(items.length)] as T, byte: () => 1 + int(255) };
}
type Rng = ReturnType<typeof random>;

interface Recorded {
  id: string;
  file: string;
  cast: Buffer;
  chain: Buffer;
  manifest: SignedManifest;
  checkpoints: SignedCheckpoint[];
}

const server = generateKeyPairSync('ed25519');
const attacker = generateKeyPairSync('ed25519');
const serverPem = server.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const attackerPem = attacker.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const trusted = { fingerprint: keyFingerprint(serverPem) };
let dir: string;
let a: Recorded;
let b: Recorded;
let video: { sha256: string; bytes: number };
let genuine: Buffer;
let genuineB: Buffer;
type Members = [string, Buffer][];
let members: Members;
let membersB: Members;

/** A session written by the server's Recorder, checkpointed and signed with the server's code. */
async function record(key: KeyObject): Promise<Recorded> {
  const id = randomUUID();
  const file = path.join(dir, `${id}.cast`);
  const recorder = await Recorder.create(file, id, { width: 80, height: 24 });
  const checkpoints: SignedCheckpoint[] = [];
  recorder.on('chunk', (c: FlushedChunk) => {
    if (c.seq % 2 === 0)
      checkpoints.push(
        signCheckpoint(
          { recording_id: id, seq: c.seq, bytes: c.bytes, chain_head: c.chainHead, at: new Date().toISOString() },
          key,
        ),
      );
  });
  for (let i = 0; i < 12; i += 1) {
    recorder.output(
      Buffer.from(`$ cat /etc/shadow ${i} "quoted" \\ été \u001b[1mbold\u001b[0m\r\n`.repeat(1 + (i % 3) * 7)),
    );
    if (i % 4 === 1) recorder.input(Buffer.from('rm -rf /tmp/x\r'));
    if (i === 5) recorder.resize(100, 30);
    await recorder.flush();
  }
  const totals = await recorder.finish();
  const manifest = signManifest(
    {
      recording_id: id,
      started_on: new Date(Date.now() - 60_000).toISOString(),
      ended_on: new Date().toISOString(),
      header_sha256: recorder.headerSha256,
      bytes: totals.bytes,
      chunks: totals.chunks,
      chain_head: totals.chainHead,
      end_reason: 'client-closed',
    },
    key,
  );
  return {
    id,
    file,
    cast: await fs.readFile(file),
    chain: await fs.readFile(`${file}.chain`),
    manifest,
    checkpoints,
  };
}

async function bundleOf(rec: Recorded, withVideo: boolean): Promise<Buffer> {
  const { size, stream } = evidenceBundle({
    recordingId: rec.id,
    endedOn: new Date(rec.manifest.ended_on),
    cast: { path: rec.file, size: rec.cast.length },
    chain: { path: `${rec.file}.chain`, size: rec.chain.length },
    manifest: rec.manifest,
    checkpoints: rec.checkpoints,
    video: withVideo ? video : undefined,
    signingKey: server.privateKey,
  });
  const bytes = Buffer.concat((await stream.toArray()) as Buffer[]);
  expect(bytes.length).toBe(size);
  return bytes;
}

/** The members of a tar as the writer made them (the test's own reading, not the verifier's). */
function unpack(tar: Buffer): Members {
  const out: Members = [];
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0;) {
    const name = tar
      .subarray(at, at + 100)
      .toString('latin1')
      .replace(/\0.*$/s, '');
    const size = parseInt(tar.subarray(at + 124, at + 136).toString('latin1'), 8);
    out.push([name, Buffer.from(tar.subarray(at + 512, at + 512 + size))]);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

function pack(list: Members, mtime = 0): Buffer {
  const parts: Buffer[] = [];
  for (const [name, data] of list) {
    parts.push(tarHeader(name, data.length, mtime), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

const get = (list: Members, name: string) => list.find(([n]) => n === name)?.[1] ?? Buffer.alloc(0);
const put = (list: Members, name: string, data: Buffer): Members => list.map(([n, d]) => [n, n === name ? data : d]);
const lines = (data: Buffer) => data.toString('latin1').split('\n').slice(0, -1);
const sortedJson = (o: object, pretty: boolean) => {
  const s = Object.fromEntries(Object.entries(o).sort(([x], [y]) => x.localeCompare(y)));
  return pretty ? `${JSON.stringify(s, null, 2)}\n` : JSON.stringify(s);
};
const manifestOf = (list: Members) => JSON.parse(get(list, 'manifest.json').toString()) as SignedManifest;
const checkpointsOf = (list: Members) =>
  lines(get(list, 'checkpoints.jsonl')).map((l) => JSON.parse(l) as SignedCheckpoint);
const renderCheckpoints = (list: SignedCheckpoint[]) =>
  Buffer.from(list.map((c) => `${sortedJson(c, false)}\n`).join(''));

/** Chain lines for a cast cut at the given chunk ends, as the recorder would write them. */
function rebuildChain(id: string, cast: Buffer, ends: number[]): Buffer {
  let link = chainStart(id);
  let offset = cast.indexOf(0x0a) + 1;
  let text = '';
  ends.forEach((end, i) => {
    link = chainNext(link, cast.subarray(offset, end));
    text += chainLine({ seq: i + 1, offset, length: end - offset, link });
    offset = end;
  });
  return Buffer.from(text);
}
const chunkEnds = (chain: Buffer) =>
  lines(chain).map((l) => {
    const [, offset, length] = l.split(' ').map(Number);
    return (offset ?? 0) + (length ?? 0);
  });

/** What an attacker with the server's code but not its key does: sign everything with their own key. */
function resign(list: Members, key: KeyObject = attacker.privateKey): Members {
  const m = manifestOf(list);
  const { signature: _s, public_key: _p, ...body } = m;
  const ends = chunkEnds(get(list, 'recording.cast.chain'));
  const cast = get(list, 'recording.cast');
  const head = lines(get(list, 'recording.cast.chain')).at(-1)?.split(' ')[3] ?? chainStart(m.recording_id);
  const manifest = signManifest({ ...body, bytes: cast.length, chunks: ends.length, chain_head: head }, key);
  const checkpoints = checkpointsOf(list).map(({ signature: _x, ...c }) => signCheckpoint(c, key));
  const fingerprint = keyFingerprint(key);
  let out = put(list, 'manifest.json', Buffer.from(sortedJson(manifest, true)));
  out = put(out, 'checkpoints.jsonl', renderCheckpoints(checkpoints));
  out = put(out, 'public-key.pem', Buffer.from(manifest.public_key));
  const hasVideo = out.some(([n]) => n === 'video.json');
  if (hasVideo) {
    const v = JSON.parse(get(out, 'video.json').toString()) as { sha256: string; bytes: number };
    const statement = signVideoStatement({ recording_id: m.recording_id, sha256: v.sha256, bytes: v.bytes }, key);
    out = put(out, 'video.json', Buffer.from(sortedJson(statement, true)));
  }
  return put(out, 'README.txt', Buffer.from(bundleReadme(m.recording_id, fingerprint, hasVideo, key)));
}

function editCast(rng: Rng, cast: Buffer): Buffer {
  const start = cast.indexOf(0x0a) + 1;
  const at = start + rng.int(cast.length - start);
  if (rng.int(2) === 0) {
    const copy = Buffer.from(cast);
    copy[at] = (copy[at] ?? 0) ^ rng.byte();
    return copy;
  }
  return Buffer.concat([cast.subarray(0, at), Buffer.from('rm -rf / '), cast.subarray(at)]);
}

/** The same cast edit with the chain rebuilt over it (the chunks' ends moved by what was inserted). */
function castEditedChainRebuilt(rng: Rng, list: Members): Members {
  const cast = get(list, 'recording.cast');
  const edited = editCast(rng, cast);
  const grow = edited.length - cast.length;
  const ends = chunkEnds(get(list, 'recording.cast.chain'));
  const firstMoved = ends.findIndex((end, i) => i === ends.length - 1 || edited.compare(cast, 0, end, 0, end) !== 0);
  const moved = ends.map((end, i) => (i >= firstMoved ? end + grow : end));
  const id = manifestOf(list).recording_id;
  return put(put(list, 'recording.cast', edited), 'recording.cast.chain', rebuildChain(id, edited, moved));
}

const NAMES = () => members.map(([n]) => n);

/** Every kind of change, each applied to the genuine bundle with seeded randomness. */
const MUTATIONS: Record<string, (rng: Rng) => Buffer> = {
  'byte flip anywhere in the archive': (rng) => {
    const copy = Buffer.from(genuine);
    const at = rng.int(copy.length);
    copy[at] = (copy[at] ?? 0) ^ rng.byte();
    return copy;
  },
  'byte flip in a member': (rng) => {
    const name = rng.pick(NAMES());
    const data = Buffer.from(get(members, name));
    const at = rng.int(data.length);
    data[at] = (data[at] ?? 0) ^ rng.byte();
    return pack(put(members, name, data));
  },
  'archive truncated': (rng) => genuine.subarray(0, rng.int(genuine.length)),
  'member truncated': (rng) => {
    const name = rng.pick(NAMES());
    const data = get(members, name);
    return pack(put(members, name, data.subarray(0, rng.int(data.length))));
  },
  'bytes appended to a member': (rng) => {
    const name = rng.pick(NAMES());
    return pack(put(members, name, Buffer.concat([get(members, name), randomBytes(1 + rng.int(64))])));
  },
  'chain line dropped': (rng) => {
    const l = lines(get(members, 'recording.cast.chain'));
    l.splice(rng.int(l.length), 1);
    return pack(put(members, 'recording.cast.chain', Buffer.from(l.map((x) => `${x}\n`).join(''))));
  },
  'chunk dropped from the cast, chain rebuilt': (rng) => {
    const cast = get(members, 'recording.cast');
    const ends = chunkEnds(get(members, 'recording.cast.chain'));
    const drop = rng.int(ends.length);
    const start = drop === 0 ? cast.indexOf(0x0a) + 1 : (ends[drop - 1] ?? 0);
    const length = (ends[drop] ?? 0) - start;
    const edited = Buffer.concat([cast.subarray(0, start), cast.subarray(start + length)]);
    const moved = ends.filter((_, i) => i !== drop).map((end, i) => (i >= drop ? end - length : end));
    const id = manifestOf(members).recording_id;
    const list = put(put(members, 'recording.cast', edited), 'recording.cast.chain', rebuildChain(id, edited, moved));
    return pack(rng.int(2) === 0 ? list : resign(list));
  },
  'chain line duplicated': (rng) => {
    const l = lines(get(members, 'recording.cast.chain'));
    const at = rng.int(l.length);
    l.splice(at + rng.int(2), 0, l[at] ?? '');
    return pack(put(members, 'recording.cast.chain', Buffer.from(l.map((x) => `${x}\n`).join(''))));
  },
  'chain lines reordered': (rng) => {
    const l = lines(get(members, 'recording.cast.chain'));
    const i = rng.int(l.length);
    let j = rng.int(l.length - 1);
    if (j >= i) j += 1;
    [l[i], l[j]] = [l[j] ?? '', l[i] ?? ''];
    return pack(put(members, 'recording.cast.chain', Buffer.from(l.map((x) => `${x}\n`).join(''))));
  },
  'cast edited, chain rebuilt': (rng) => pack(castEditedChainRebuilt(rng, members)),
  'cast edited, chain rebuilt, all re-signed by an attacker': (rng) =>
    pack(resign(castEditedChainRebuilt(rng, members))),
  'manifest swapped with another recording’s': () =>
    pack(put(members, 'manifest.json', get(membersB, 'manifest.json'))),
  'manifest signature swapped': () => {
    const m = { ...manifestOf(members), signature: manifestOf(membersB).signature };
    return pack(put(members, 'manifest.json', Buffer.from(sortedJson(m, true))));
  },
  'manifest statement changed, signature kept': (rng) => {
    const m = manifestOf(members);
    const field = rng.pick(['bytes', 'chunks', 'ended_on', 'end_reason', 'chain_head', 'header_sha256'] as const);
    const changed = {
      ...m,
      [field]:
        typeof m[field] === 'number'
          ? m[field] + 1 + rng.int(5)
          : field === 'ended_on'
            ? new Date(Date.parse(m.ended_on) + 1000).toISOString()
            : field === 'end_reason'
              ? 'terminated'
              : chainStart(String(rng.int(1e9))),
    };
    return pack(put(members, 'manifest.json', Buffer.from(sortedJson(changed, true))));
  },
  'public key swapped for an attacker’s, everything re-signed': () => pack(resign(members)),
  'public key swapped for an attacker’s, nothing re-signed': () =>
    pack(
      put(
        members,
        'public-key.pem',
        Buffer.from(attacker.publicKey.export({ type: 'spki', format: 'pem' }).toString()),
      ),
    ),
  'checkpoint altered, signature kept': (rng) => {
    const list = checkpointsOf(members);
    const i = rng.int(list.length);
    const c = list[i]!;
    const field = rng.pick(['bytes', 'chain_head', 'at', 'seq'] as const);
    list[i] = {
      ...c,
      ...(field === 'bytes' ? { bytes: c.bytes + 1 } : {}),
      ...(field === 'seq' ? { seq: c.seq + 1 } : {}),
      ...(field === 'chain_head' ? { chain_head: chainStart('x') } : {}),
      ...(field === 'at' ? { at: new Date(Date.parse(c.at) - 5000).toISOString() } : {}),
    };
    return pack(put(members, 'checkpoints.jsonl', renderCheckpoints(list)));
  },
  'checkpoint dropped, re-signed by an attacker': (rng) => {
    const list = checkpointsOf(members);
    list.splice(rng.int(list.length), 1);
    return pack(resign(put(members, 'checkpoints.jsonl', renderCheckpoints(list))));
  },
  'checkpoint of another recording inserted': (rng) => {
    const list = checkpointsOf(members);
    list.splice(rng.int(list.length + 1), 0, rng.pick(checkpointsOf(membersB)));
    return pack(put(members, 'checkpoints.jsonl', renderCheckpoints(list)));
  },
  'checkpoint duplicated or reordered': (rng) => {
    const list = checkpointsOf(members);
    const i = rng.int(list.length);
    if (rng.int(2) === 0) list.splice(i, 0, list[i]!);
    else list.reverse();
    return pack(put(members, 'checkpoints.jsonl', renderCheckpoints(list)));
  },
  'video statement changed, signature kept': (rng) => {
    const v = JSON.parse(get(members, 'video.json').toString()) as Record<string, unknown>;
    const changed = rng.int(2) === 0 ? { ...v, bytes: (v.bytes as number) + 1 } : { ...v, sha256: chainStart('v') };
    return pack(put(members, 'video.json', Buffer.from(sortedJson(changed, true))));
  },
  'README or video statement of another bundle': (rng) =>
    rng.int(2) === 0
      ? pack(put(members, 'README.txt', get(membersB, 'README.txt')))
      : pack(members.filter(([n]) => n !== 'video.json')),
  'member removed': (rng) => {
    const name = rng.pick(NAMES());
    return pack(members.filter(([n]) => n !== name));
  },
  'member repeated': (rng) => {
    const name = rng.pick(NAMES());
    const copy = rng.int(2) === 0 ? get(members, name) : get(membersB, name);
    const list: Members = [...members];
    list.splice(rng.int(list.length + 1), 0, [name, copy]);
    return pack(list);
  },
  'hostile member added': (rng) => {
    const name = rng.pick(['../evil.sh', '/etc/passwd', 'recording.cast/../x', 'extra.txt', 'README.TXT']);
    const list: Members = [...members];
    list.splice(rng.int(list.length + 1), 0, [name, randomBytes(rng.int(700))]);
    return pack(list);
  },
  'hostile size in a header': (rng) => {
    const copy = Buffer.from(genuine);
    const header = tarHeader('recording.cast', 8 ** 11 - 1 - rng.int(1e6), 0);
    header.copy(copy, 0);
    return copy;
  },
};

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gh-tamper-'));
  a = await record(server.privateKey);
  b = await record(server.privateKey);
  const videoBytes = randomBytes(50_000);
  await fs.writeFile(path.join(dir, 'video.mp4'), videoBytes);
  const { fileDigest } = await import('../../../server/src/recordings/bundle.js');
  video = await fileDigest(path.join(dir, 'video.mp4'), videoBytes.length);
  genuine = await bundleOf(a, true);
  genuineB = await bundleOf(b, false);
  members = unpack(genuine);
  membersB = unpack(genuineB);
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('evidence bundles: every change to a bundle is found by the offline verifier', () => {
  it('finds a genuine bundle intact, with the fingerprint or the public key', async () => {
    expect(a.checkpoints.length).toBeGreaterThanOrEqual(4);
    expect(members.map(([n]) => n)).toEqual([
      'recording.cast',
      'recording.cast.chain',
      'manifest.json',
      'checkpoints.jsonl',
      'video.json',
      'public-key.pem',
      'README.txt',
    ]);
    const byPrint = await verifyBundle(bufferSource(genuine), trusted, {
      fileName: `gatehouse-session-${a.id}.tar`,
      video: bufferSource(await fs.readFile(path.join(dir, 'video.mp4'))),
    });
    expect(byPrint.problems).toEqual([]);
    expect(byPrint.intact).toBe(true);
    expect((await verifyBundle(bufferSource(genuineB), { key: server.publicKey })).intact).toBe(true);
    // The test's packer makes the writer's bytes, so member-level mutations change only what they say.
    expect(pack(members, Date.parse(a.manifest.ended_on) / 1000).equals(genuine)).toBe(true);
  });

  it('names the key that signed a bundle and the key given when they differ', async () => {
    const forged = await verifyBundle(bufferSource(pack(resign(members))), trusted);
    expect(forged.intact).toBe(false);
    expect(forged.problems[0]).toContain(`signed by the key ${keyFingerprint(attackerPem)}`);
    expect(forged.problems[0]).toContain(trusted.fingerprint);
    const other = await verifyBundle(bufferSource(genuine), { key: attacker.publicKey });
    expect(other.intact).toBe(false);
    expect(other.problems.join('\n')).toMatch(/manifest’s signature does not match/);
  });

  it('names the chunk and the bytes of an edited cast', async () => {
    const cast = Buffer.from(get(members, 'recording.cast'));
    const ends = chunkEnds(get(members, 'recording.cast.chain'));
    const at = (ends[2] ?? 0) + 3;
    cast[at] = (cast[at] ?? 0) ^ 0x20;
    const report = await verifyBundle(bufferSource(pack(put(members, 'recording.cast', cast))), trusted);
    expect(report.problems).toEqual([
      `chunk 4 (bytes ${ends[2]}–${(ends[3] ?? 0) - 1} of recording.cast) does not match its chain link: those bytes or the link were changed`,
    ]);
  });

  it('finds all of 10,000 seeded random mutations tampered', async () => {
    const kinds = Object.keys(MUTATIONS);
    const missed: string[] = [];
    const seen = new Map<string, number>();
    for (let seed = 1; seed <= 10_000; seed += 1) {
      const rng = random(seed);
      const kind = kinds[seed % kinds.length]!;
      const mutated = MUTATIONS[kind]!(rng);
      if (mutated.equals(genuine)) continue;
      seen.set(kind, (seen.get(kind) ?? 0) + 1);
      const report = await verifyBundle(bufferSource(mutated), trusted);
      if (report.intact || report.problems.length === 0) missed.push(`${kind} (seed ${seed})`);
    }
    expect(missed).toEqual([]);
    expect([...seen.values()].reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(9_900);
    for (const kind of kinds) expect(seen.get(kind), kind).toBeGreaterThan(300);
  }, 120_000);
});

describe('stored recordings: every change to the files is found by the server’s verification', () => {
  const kinds: Record<string, (rng: Rng) => { cast: Buffer; chain: Buffer; manifest: SignedManifest }> = {
    'cast byte flipped': (rng) => {
      const cast = Buffer.from(a.cast);
      const at = rng.int(cast.length);
      cast[at] = (cast[at] ?? 0) ^ rng.byte();
      return { cast, chain: a.chain, manifest: a.manifest };
    },
    'chain byte flipped': (rng) => {
      const chain = Buffer.from(a.chain);
      const at = rng.int(chain.length);
      chain[at] = (chain[at] ?? 0) ^ rng.byte();
      return { cast: a.cast, chain, manifest: a.manifest };
    },
    'cast truncated': (rng) => ({
      cast: a.cast.subarray(0, rng.int(a.cast.length)),
      chain: a.chain,
      manifest: a.manifest,
    }),
    'chain line dropped, duplicated or moved': (rng) => {
      const l = lines(a.chain);
      const i = rng.int(l.length);
      const op = rng.int(3);
      if (op === 0) l.splice(i, 1);
      else if (op === 1) l.splice(i, 0, l[i] ?? '');
      else l.splice(i, 0, ...l.splice((i + 1) % l.length, 1));
      return { cast: a.cast, chain: Buffer.from(l.map((x) => `${x}\n`).join('')), manifest: a.manifest };
    },
    'cast edited, chain rebuilt': (rng) => {
      const list = castEditedChainRebuilt(rng, members);
      return { cast: get(list, 'recording.cast'), chain: get(list, 'recording.cast.chain'), manifest: a.manifest };
    },
    'manifest swapped or its signature swapped': (rng) => ({
      cast: a.cast,
      chain: a.chain,
      manifest: rng.int(2) === 0 ? b.manifest : { ...a.manifest, signature: b.manifest.signature },
    }),
    'everything re-signed by an attacker': (rng) => {
      const list = resign(castEditedChainRebuilt(rng, members));
      return {
        cast: get(list, 'recording.cast'),
        chain: get(list, 'recording.cast.chain'),
        manifest: manifestOf(list),
      };
    },
  };

  it('finds all of 2,000 seeded random mutations of the stored files tampered', async () => {
    const names = Object.keys(kinds);
    const missed: string[] = [];
    const file = path.join(dir, 'stored.cast');
    let checked = 0;
    for (let seed = 1; seed <= 2_000; seed += 1) {
      const kind = names[seed % names.length]!;
      const { cast, chain, manifest } = kinds[kind]!(random(seed));
      if (cast.equals(a.cast) && chain.equals(a.chain) && manifest === a.manifest) continue;
      await fs.writeFile(file, cast);
      await fs.writeFile(`${file}.chain`, chain);
      const result = await verifyRecording(file, manifest, serverPem);
      checked += 1;
      if (result.intact) missed.push(`${kind} (seed ${seed})`);
    }
    expect(missed).toEqual([]);
    expect(checked).toBeGreaterThan(1_900);
    await fs.writeFile(file, a.cast);
    await fs.writeFile(`${file}.chain`, a.chain);
    expect((await verifyRecording(file, a.manifest, serverPem)).intact).toBe(true);
  }, 60_000);
});
