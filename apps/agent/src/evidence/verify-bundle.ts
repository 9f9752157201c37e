#!/usr/bin/env node
/**
 * Offline verifier of a Gatehouse evidence bundle (gatehouse-session-<id>.tar).
 *
 * One module on purpose: it imports nothing but Node's builtins, so its compiled file can be
 * handed to an auditor alone (`node verify-bundle.js BUNDLE --key SHA256:...`). It reimplements
 * the formats (ustar, the chain, signed manifests, checkpoints, video statements) instead of
 * importing the server's code: a verifier that shares the writer's code shares its mistakes
 * (docs/adr/0006-offline-bundle-verifier.md). It trusts only the key it is given, and reads the
 * archive in bounded memory at any size.
 */
import { type KeyObject, createHash, createPublicKey, verify as verifySignature } from 'node:crypto';
import { realpathSync } from 'node:fs';
import fs from 'node:fs/promises';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The members of a bundle, by role. */
export const BUNDLE_MEMBERS = {
  cast: 'recording.cast',
  chain: 'recording.cast.chain',
  manifest: 'manifest.json',
  checkpoints: 'checkpoints.jsonl',
  video: 'video.json',
  key: 'public-key.pem',
  readme: 'README.txt',
} as const;
const REQUIRED = ['cast', 'chain', 'manifest', 'checkpoints', 'key', 'readme'] as const;
const KNOWN_NAMES = new Set<string>(Object.values(BUNDLE_MEMBERS));

const BLOCK = 512;
const WINDOW = 64 * 1024;
/** A bundle holds seven members at most; a few more headers are read only to name them. */
const MAX_HEADERS = 64;
/** Largest size of the small members, read whole (a genuine one is a few KiB). */
const MAX_SMALL = 256 * 1024;
/** Largest checkpoints.jsonl (a checkpoint every few seconds of a month-long session fits). */
const MAX_CHECKPOINTS_BYTES = 128 * 1024 * 1024;
const MAX_CHAIN_LINE = 256;
const MAX_CHECKPOINT_LINE = 4096;
/** The asciicast header line is looked for in the first MiB, as the server does. */
const MAX_HEADER = 1024 * 1024;
/** Problems listed one by one; beyond this they are counted. */
const MAX_PROBLEMS = 100;

// ───────────────────────────── reading: a file or bytes ─────────────────────────────

/** Where the bundle's bytes come from: a file read in place, or bytes in memory (tests). */
export interface ByteSource {
  size: number;
  /** Bytes [position, position + length), fewer only at the end. */
  read(position: number, length: number): Promise<Buffer>;
}

/** Bytes in memory as a source. */
export function bufferSource(bytes: Buffer): ByteSource {
  return { size: bytes.length, read: async (at, length) => bytes.subarray(at, Math.min(bytes.length, at + length)) };
}

async function* ranges(source: ByteSource, offset: number, length: number): AsyncGenerator<Buffer> {
  for (let at = offset; at < offset + length;) {
    const piece = await source.read(at, Math.min(WINDOW, offset + length - at));
    if (piece.length === 0) return;
    yield piece;
    at += piece.length;
  }
}

// ───────────────────────────── tar (POSIX ustar) ─────────────────────────────

/** One member of the archive: where its bytes lie. */
export interface TarMember {
  name: string;
  offset: number;
  size: number;
}

function isZero(bytes: Buffer): boolean {
  for (const b of bytes) if (b !== 0) return false;
  return true;
}

function text(header: Buffer, start: number, length: number): string {
  const field = header.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? length : end).toString('latin1');
}

/** A numeric field: octal digits then NUL or space; sizes of 8 GiB and more in base-256 (GNU). */
function tarNumber(header: Buffer, start: number, length: number, big = false): number | undefined {
  const field = header.subarray(start, start + length);
  if (big && field[0] === 0x80) {
    let value = 0;
    for (const b of field.subarray(1)) value = value * 256 + b;
    return Number.isSafeInteger(value) && value >= 8 ** (length - 1) ? value : undefined;
  }
  const match = /^([0-7]+)[\0 ]*$/.exec(field.toString('latin1'));
  return match?.[1] ? parseInt(match[1], 8) : undefined;
}

/**
 * Reads the archive's index with strict bounds: every header's checksum, ustar magic, regular
 * files only, sizes within the archive, zero padding, the end marker and nothing after it but
 * zeros. Names are only compared with the bundle's names, never used as paths.
 */
export async function readTar(source: ByteSource, problem: (text: string) => void): Promise<Map<string, TarMember>> {
  const members = new Map<string, TarMember>();
  let at = 0;
  for (let count = 0; ; count += 1) {
    if (count >= MAX_HEADERS) {
      problem(`the archive has more than ${MAX_HEADERS} members; a bundle has seven at most`);
      return members;
    }
    const header = await source.read(at, BLOCK);
    if (header.length < BLOCK) {
      problem(`the archive is truncated: it ends at byte ${source.size} without its end-of-archive marker`);
      return members;
    }
    if (isZero(header)) {
      const second = await source.read(at + BLOCK, BLOCK);
      if (second.length < BLOCK || !isZero(second))
        problem(`the archive's end-of-archive marker at byte ${at} is incomplete or damaged`);
      for await (const piece of ranges(source, at + 2 * BLOCK, Math.max(0, source.size - at - 2 * BLOCK)))
        if (!isZero(piece)) {
          problem(`the archive holds data after its end-of-archive marker (from byte ${at + 2 * BLOCK})`);
          break;
        }
      return members;
    }
    const where = `the tar header at byte ${at}`;
    const stored = /^([0-7]{6})\0 $/.exec(header.subarray(148, 156).toString('latin1'))?.[1];
    let sum = 8 * 0x20;
    for (let i = 0; i < BLOCK; i += 1) if (i < 148 || i >= 156) sum += header[i] ?? 0;
    if (stored === undefined || parseInt(stored, 8) !== sum) {
      problem(`${where} fails its checksum (the header was changed)`);
      return members;
    }
    const name = text(header, 0, 100);
    const label = JSON.stringify(name);
    const size = tarNumber(header, 124, 12, true);
    const magic = header.subarray(257, 265).toString('latin1');
    if (magic !== 'ustar\u000000') {
      problem(`${where} (${label}) is not a POSIX ustar header`);
      return members;
    }
    if (size === undefined) {
      problem(`${where} (${label}) has no readable size`);
      return members;
    }
    const dataAt = at + BLOCK;
    const padded = Math.ceil(size / BLOCK) * BLOCK;
    if (size > source.size - dataAt) {
      problem(
        `the archive is truncated: ${label} claims ${size} bytes but only ${Math.max(0, source.size - dataAt)} follow its header`,
      );
      return members;
    }
    const type = header[156];
    if (type !== 0x30 && type !== 0)
      problem(`${label} is not a regular file (tar type ${String.fromCharCode(type ?? 0)})`);
    else if (text(header, 345, 155) !== '') problem(`${label} has a path prefix; bundle members have none`);
    else if (!KNOWN_NAMES.has(name)) problem(`the archive holds an unexpected member ${label}`);
    else if (members.has(name)) problem(`${label} appears twice in the archive (the first one was checked)`);
    else members.set(name, { name, offset: dataAt, size });
    if (padded > size) {
      const tail = await source.read(dataAt + size, padded - size);
      if (tail.length < padded - size) {
        problem(`the archive is truncated inside the padding of ${label}`);
        return members;
      }
      if (!isZero(tail))
        problem(`the padding after ${label} (bytes ${dataAt + size}–${dataAt + padded - 1}) is not zeros`);
    }
    at = dataAt + padded;
  }
}

async function* memberLines(
  source: ByteSource,
  member: TarMember,
  maxLine: number,
): AsyncGenerator<{ number: number; line: Buffer | undefined; complete: boolean }> {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let tooLong = false;
  let number = 0;
  for await (const piece of ranges(source, member.offset, member.size)) {
    let from = 0;
    for (let nl = piece.indexOf(0x0a); nl >= 0; nl = piece.indexOf(0x0a, from)) {
      number += 1;
      const part = piece.subarray(from, nl);
      const long = tooLong || pendingLength + part.length > maxLine;
      yield { number, line: long ? undefined : Buffer.concat([...pending, part]), complete: true };
      pending = [];
      pendingLength = 0;
      tooLong = false;
      from = nl + 1;
    }
    const rest = piece.subarray(from);
    if (tooLong || pendingLength + rest.length > maxLine) {
      tooLong = true;
      pending = [];
      pendingLength = 0;
    } else if (rest.length > 0) {
      pending.push(Buffer.from(rest));
      pendingLength += rest.length;
    }
  }
  if (pendingLength > 0 || tooLong)
    yield { number: number + 1, line: tooLong ? undefined : Buffer.concat(pending), complete: false };
}

// ───────────────────────────── keys, signatures, canonical JSON ─────────────────────────────

/** `SHA256:` + unpadded base64 of SHA-256 over the key's SPKI DER (the OpenSSH style). */
export function keyFingerprint(key: KeyObject): string {
  const der = key.export({ type: 'spki', format: 'der' });
  return `SHA256:${createHash('sha256').update(der).digest('base64').replace(/=+$/, '')}`;
}

/** A parsed public key with what the checks compare: its fingerprint and its canonical PEM. */
interface ParsedKey {
  key: KeyObject;
  fingerprint: string;
  pem: string;
}

/** Keys parsed before (the same few keys recur; parsing and exporting one costs a millisecond). */
const parsedKeys = new Map<string, ParsedKey | string>();

/** An Ed25519 public key from PEM text, or why not. */
function parseKey(text: string): ParsedKey | string {
  const known = parsedKeys.get(text);
  if (known) return known;
  let parsed: ParsedKey | string;
  try {
    const key = createPublicKey(text);
    parsed =
      key.asymmetricKeyType === 'ed25519'
        ? { key, fingerprint: keyFingerprint(key), pem: key.export({ type: 'spki', format: 'pem' }).toString() }
        : `it is a ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`;
  } catch {
    parsed = 'it is not a PEM public key';
  }
  if (parsedKeys.size >= 64) parsedKeys.clear();
  parsedKeys.set(text, parsed);
  return parsed;
}

type Json = Record<string, unknown>;

/** Keys sorted as the server sorts them when signing. */
function sorted(object: Json): Json {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)));
}

/** The bytes a signature covers: the body's JSON with sorted keys, without the named fields. */
function signedBytes(object: Json, without: readonly string[]): Buffer {
  const body = Object.fromEntries(Object.entries(object).filter(([k]) => !without.includes(k)));
  return Buffer.from(JSON.stringify(sorted(body)));
}

/** An Ed25519 signature in canonical base64 (any other spelling of the same bytes is refused). */
function signatureBytes(value: unknown): Buffer | undefined {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]{86}==$/.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64');
  return bytes.toString('base64') === value ? bytes : undefined;
}

function signatureValid(message: Buffer, signature: unknown, key: KeyObject | undefined): boolean | undefined {
  const bytes = signatureBytes(signature);
  if (!bytes) return false;
  if (!key) return undefined;
  try {
    return verifySignature(null, message, key, bytes);
  } catch {
    return false;
  }
}

/** A JSON object parsed from bytes that must be exactly its canonical rendering. */
function canonicalJson(bytes: Buffer, pretty: boolean): Json | 'json' | 'form' {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    return 'json';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'json';
  const rendered = pretty
    ? `${JSON.stringify(sorted(parsed as Json), null, 2)}\n`
    : JSON.stringify(sorted(parsed as Json));
  return Buffer.from(rendered).equals(bytes) ? (parsed as Json) : 'form';
}

const HEX64 = /^[0-9a-f]{64}$/;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isTime = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));

// ───────────────────────────── the checks ─────────────────────────────

/** The manifest's statements, once its form is checked. */
interface Manifest {
  recording_id: string;
  started_on: string;
  ended_on: string;
  header_sha256: string;
  bytes: number;
  chunks: number;
  chain_head: string;
  end_reason: string;
  signature: string;
  public_key: string;
}

interface Checkpoint {
  seq: number;
  bytes: number;
  chain_head: string;
  line: number;
}

/** What the verifier found. */
export interface BundleReport {
  intact: boolean;
  problems: string[];
  /** What was checked, in plain words, for the summary. */
  checked: string[];
  recordingId?: string;
  /** Fingerprint of the bundle's own public key, when readable. */
  bundleKey?: string;
  trustedKey: string;
}

/** The key the user trusts: a fingerprint, or a public key (PEM text). */
export type TrustedKey = { fingerprint: string } | { key: KeyObject };

/** Options of a verification. */
export interface VerifyOptions {
  /** The file name the bundle came with (its recording id is compared with the manifest's). */
  fileName?: string;
  /** The video file, to compare with the signed video statement. */
  video?: ByteSource;
}

class Findings {
  readonly problems: string[] = [];
  readonly checked: string[] = [];
  private more = 0;
  add = (message: string) => {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(message);
    else this.more += 1;
  };
  list(): string[] {
    return this.more > 0 ? [...this.problems, `and ${this.more} more problems`] : this.problems;
  }
}

async function small(source: ByteSource, member: TarMember, cap: number, problem: (t: string) => void) {
  if (member.size > cap) {
    problem(`${member.name} is ${member.size} bytes, more than a genuine one can be (${cap})`);
    return undefined;
  }
  return source.read(member.offset, member.size);
}

function checkManifest(bytes: Buffer, key: KeyObject | undefined, f: Findings): Manifest | undefined {
  const parsed = canonicalJson(bytes, true);
  if (parsed === 'json') {
    f.add('manifest.json is not a JSON object');
    return undefined;
  }
  if (parsed === 'form') f.add('manifest.json was edited: it is not the exact form the server writes');
  const m = (typeof parsed === 'object' ? parsed : {}) as Partial<Manifest>;
  const wrong: string[] = [];
  for (const field of ['recording_id', 'started_on', 'ended_on', 'end_reason', 'public_key'] as const)
    if (typeof m[field] !== 'string') wrong.push(field);
  for (const field of ['header_sha256', 'chain_head'] as const)
    if (typeof m[field] !== 'string' || !HEX64.test(m[field])) wrong.push(field);
  for (const field of ['bytes', 'chunks'] as const) if (!isCount(m[field])) wrong.push(field);
  if (!isTime(m.started_on) || !isTime(m.ended_on)) wrong.push('started_on/ended_on');
  if (wrong.length > 0) {
    f.add(`manifest.json lacks or garbles ${[...new Set(wrong)].join(', ')}`);
    return undefined;
  }
  const manifest = m as Manifest;
  const valid = signatureValid(
    signedBytes(manifest as unknown as Json, ['signature', 'public_key']),
    manifest.signature,
    key,
  );
  if (valid === false) f.add('the manifest’s signature does not match its statements and the trusted key');
  if (valid) f.checked.push('the manifest’s signature');
  return manifest;
}

/** The cast's header line: it ends at its first newline within the first MiB. */
async function castHeader(source: ByteSource, cast: TarMember): Promise<{ end: number; sha256: string } | undefined> {
  const hash = createHash('sha256');
  let seen = 0;
  for await (const piece of ranges(source, cast.offset, Math.min(cast.size, MAX_HEADER))) {
    const nl = piece.indexOf(0x0a);
    if (nl >= 0) return { end: seen + nl + 1, sha256: hash.update(piece.subarray(0, nl + 1)).digest('hex') };
    hash.update(piece);
    seen += piece.length;
  }
  return undefined;
}

async function readCheckpoints(
  source: ByteSource,
  member: TarMember,
  manifest: Manifest,
  key: KeyObject | undefined,
  f: Findings,
): Promise<Map<number, Checkpoint>> {
  const bySeq = new Map<number, Checkpoint>();
  if (member.size > MAX_CHECKPOINTS_BYTES) {
    f.add(`checkpoints.jsonl is ${member.size} bytes, more than a genuine one can be`);
    return bySeq;
  }
  let lastSeq = 0;
  let signed = 0;
  for await (const { number, line, complete } of memberLines(source, member, MAX_CHECKPOINT_LINE)) {
    const where = `line ${number} of checkpoints.jsonl`;
    if (!complete) f.add(`${where} has no newline: the file was cut`);
    const parsed = line ? canonicalJson(line, false) : 'json';
    if (typeof parsed !== 'object') {
      f.add(
        parsed === 'form'
          ? `${where} was edited: it is not the exact form the server writes`
          : `${where} is not a checkpoint`,
      );
      continue;
    }
    const { seq, bytes, chain_head: head, recording_id: id, at, signature } = parsed;
    if (!isCount(seq) || seq < 1 || !isCount(bytes) || typeof head !== 'string' || !HEX64.test(head) || !isTime(at)) {
      f.add(`${where} lacks or garbles seq, bytes, chain_head or at`);
      continue;
    }
    const valid = signatureValid(signedBytes(parsed, ['signature']), signature, key);
    if (valid === false)
      f.add(`the signature of checkpoint ${seq} (${where}) does not match its statements and the trusted key`);
    if (valid) signed += 1;
    if (id !== manifest.recording_id) f.add(`checkpoint ${seq} (${where}) belongs to recording ${String(id)}`);
    if (seq <= lastSeq) f.add(`checkpoint ${seq} (${where}) is out of order or repeated (after checkpoint ${lastSeq})`);
    if (seq > manifest.chunks) f.add(`checkpoint ${seq} names a chunk past the manifest’s ${manifest.chunks}`);
    lastSeq = Math.max(lastSeq, seq);
    if (!bySeq.has(seq)) bySeq.set(seq, { seq, bytes, chain_head: head, line: number });
  }
  f.checked.push(`${bySeq.size} signed checkpoints${key ? ` (${signed} signatures valid)` : ''}`);
  return bySeq;
}

/** Replays the chain over the cast's bytes and holds it to the manifest and the checkpoints. */
async function checkChain(
  source: ByteSource,
  cast: TarMember,
  chain: TarMember,
  manifest: Manifest,
  checkpoints: Map<number, Checkpoint>,
  f: Findings,
): Promise<void> {
  const header = await castHeader(source, cast);
  if (!header) f.add('recording.cast has no header line (no newline in its first MiB)');
  else if (header.sha256 !== manifest.header_sha256)
    f.add(`the header of recording.cast (bytes 0–${header.end - 1}) was changed`);
  let link = createHash('sha256').update(`gatehouse-recording:${manifest.recording_id}`).digest('hex');
  let offset = header?.end ?? 0;
  let expected = 1;
  let lines = 0;
  const matched = new Set<number>();
  for await (const { number, line, complete } of memberLines(source, chain, MAX_CHAIN_LINE)) {
    lines += 1;
    const where = `line ${number} of recording.cast.chain`;
    const match = line
      ? /^(0|[1-9]\d{0,14}) (0|[1-9]\d{0,15}) (0|[1-9]\d{0,15}) ([0-9a-f]{64})$/.exec(line.toString('latin1'))
      : null;
    if (!complete) f.add(`${where} has no newline: the chain was cut`);
    if (!match) {
      f.add(`${where} is not a chain entry`);
      expected += 1;
      continue;
    }
    const seq = Number(match[1]);
    const start = Number(match[2]);
    const length = Number(match[3]);
    const stated = match[4] ?? '';
    const end = start + length;
    if (seq !== expected)
      f.add(`${where} is chunk ${seq}, expected chunk ${expected}: a chunk was dropped, repeated or moved`);
    if (start !== offset)
      f.add(
        `chunk ${seq} starts at byte ${start} of recording.cast, expected ${offset} (chunks must follow each other)`,
      );
    const range = `bytes ${start}–${end - 1} of recording.cast`;
    if (end > cast.size) f.add(`chunk ${seq} (${range}) runs past the end of recording.cast (${cast.size} bytes)`);
    else {
      const hash = createHash('sha256').update(link, 'hex');
      for await (const piece of ranges(source, cast.offset + start, length)) hash.update(piece);
      if (hash.digest('hex') !== stated)
        f.add(`chunk ${seq} (${range}) does not match its chain link: those bytes or the link were changed`);
    }
    const checkpoint = checkpoints.get(seq);
    if (checkpoint) {
      matched.add(seq);
      if (checkpoint.chain_head !== stated || checkpoint.bytes !== end)
        f.add(
          `checkpoint ${seq} (line ${checkpoint.line} of checkpoints.jsonl) says the chain was at byte ${checkpoint.bytes} with another link than chunk ${seq} (ends at ${end}): the recording was changed after it was signed`,
        );
    }
    link = stated;
    offset = end;
    expected = seq + 1;
  }
  for (const seq of checkpoints.keys())
    if (!matched.has(seq)) f.add(`checkpoint ${seq} names a chunk the chain does not have: chunks were dropped`);
  if (offset < cast.size)
    f.add(`recording.cast has ${cast.size - offset} bytes (${offset}–${cast.size - 1}) the chain does not cover`);
  if (lines !== manifest.chunks) f.add(`the chain has ${lines} chunks, the manifest says ${manifest.chunks}`);
  if (link !== manifest.chain_head) f.add('the chain does not end with the link the manifest signs (chain_head)');
  if (cast.size !== manifest.bytes) f.add(`recording.cast has ${cast.size} bytes, the manifest says ${manifest.bytes}`);
  f.checked.push(`the header and ${lines} chained chunks over ${cast.size} bytes`);
}

async function checkVideo(
  bytes: Buffer,
  manifest: Manifest,
  key: KeyObject | undefined,
  f: Findings,
  video?: ByteSource,
) {
  const parsed = canonicalJson(bytes, true);
  if (typeof parsed !== 'object') {
    f.add(
      parsed === 'form'
        ? 'video.json was edited: it is not the exact form the server writes'
        : 'video.json is not a video statement',
    );
    return;
  }
  const { recording_id: id, sha256, bytes: size, signature } = parsed;
  if (typeof sha256 !== 'string' || !HEX64.test(sha256) || !isCount(size)) {
    f.add('video.json lacks or garbles sha256 or bytes');
    return;
  }
  const valid = signatureValid(signedBytes(parsed, ['signature']), signature, key);
  if (valid === false) f.add('the signature of video.json does not match its statements and the trusted key');
  if (id !== manifest.recording_id) f.add(`video.json speaks of recording ${String(id)}`);
  f.checked.push(`the video statement (${size} bytes, SHA-256 ${sha256})`);
  if (!video) return;
  const hash = createHash('sha256');
  for await (const piece of ranges(video, 0, video.size)) hash.update(piece);
  if (video.size !== size || hash.digest('hex') !== sha256)
    f.add(`the video file given (${video.size} bytes) is not the video the statement signs`);
  else f.checked.push('the video file against it');
}

function checkReadme(bytes: Buffer, manifest: Manifest, key: KeyObject | undefined, hasVideo: boolean, f: Findings) {
  const body = bytes.toString('utf8');
  const match = /\nSignature: ([A-Za-z0-9+/=]+)\n$/.exec(body);
  const signedPart = match ? bytes.subarray(0, bytes.length - Buffer.byteLength(match[0]) + 1) : undefined;
  if (!match || !signedPart || !Buffer.from(body).equals(bytes)) {
    f.add('README.txt has no signature line');
    return;
  }
  if (signatureValid(signedPart, match[1], key) === false)
    f.add('README.txt was changed: its signature does not match');
  if (!body.startsWith(`Gatehouse evidence bundle\nRecording: ${manifest.recording_id}\n`))
    f.add('README.txt speaks of another recording');
  // The signed README lists video.json when the server made one: a removed statement shows.
  if (body.includes('\n  video.json ') !== hasVideo)
    f.add(
      hasVideo
        ? 'README.txt does not list video.json, yet the archive holds one'
        : 'README.txt lists video.json, but the archive lacks it',
    );
}

/** Checks a bundle against the trusted key; never throws for what the bundle holds. */
export async function verifyBundle(
  source: ByteSource,
  trusted: TrustedKey,
  options: VerifyOptions = {},
): Promise<BundleReport> {
  const f = new Findings();
  const trustedKey = 'key' in trusted ? keyFingerprint(trusted.key) : trusted.fingerprint;
  const report = (extra: Partial<BundleReport> = {}): BundleReport => {
    const problems = f.list();
    return { intact: problems.length === 0, problems, checked: f.checked, trustedKey, ...extra };
  };
  const members = await readTar(source, f.add);
  const missing = REQUIRED.filter((role) => !members.has(BUNDLE_MEMBERS[role]));
  for (const role of missing) f.add(`the archive lacks ${BUNDLE_MEMBERS[role]}`);
  // The bundle's key, held to the trusted one: signatures are checked with the trusted key only.
  let bundleKey: string | undefined;
  let key: KeyObject | undefined = 'key' in trusted ? trusted.key : undefined;
  const keyMember = members.get(BUNDLE_MEMBERS.key);
  const pem = keyMember ? await small(source, keyMember, MAX_SMALL, f.add) : undefined;
  if (pem) {
    const parsed = parseKey(pem.toString('utf8'));
    if (typeof parsed === 'string') f.add(`public-key.pem is unreadable: ${parsed}`);
    else {
      bundleKey = parsed.fingerprint;
      if (!Buffer.from(parsed.pem).equals(pem))
        f.add('public-key.pem was edited: it is not the exact PEM the server writes');
      if (bundleKey !== trustedKey)
        f.add(
          `the bundle is signed by the key ${bundleKey} (public-key.pem), not by the key you gave (${trustedKey}): it was signed by someone else, or you were given another key`,
        );
      else key = parsed.key;
    }
  }
  if ('fingerprint' in trusted && bundleKey !== trustedKey)
    f.add('no signature could be checked: the bundle does not hold the key you trust');
  const manifestMember = members.get(BUNDLE_MEMBERS.manifest);
  const manifestBytes = manifestMember ? await small(source, manifestMember, MAX_SMALL, f.add) : undefined;
  const manifest = manifestBytes ? checkManifest(manifestBytes, key, f) : undefined;
  if (!manifest) return report({ bundleKey });
  const named = /^gatehouse-session-([0-9a-f-]{36})\.tar$/i.exec(options.fileName ?? '')?.[1];
  if (named && named.toLowerCase() !== manifest.recording_id.toLowerCase())
    f.add(`the file is named for recording ${named} but holds recording ${manifest.recording_id}`);
  const manifestKey = parseKey(manifest.public_key);
  if (typeof manifestKey === 'string' || manifestKey.pem !== manifest.public_key)
    f.add('the public_key in manifest.json is not a well-formed Ed25519 PEM key');
  else if (pem && manifestKey.pem !== pem.toString('utf8'))
    f.add(`the manifest names the key ${manifestKey.fingerprint}, which is not public-key.pem`);
  const checkpointsMember = members.get(BUNDLE_MEMBERS.checkpoints);
  const checkpoints = checkpointsMember
    ? await readCheckpoints(source, checkpointsMember, manifest, key, f)
    : new Map<number, Checkpoint>();
  const cast = members.get(BUNDLE_MEMBERS.cast);
  const chain = members.get(BUNDLE_MEMBERS.chain);
  if (cast && chain) await checkChain(source, cast, chain, manifest, checkpoints, f);
  const videoMember = members.get(BUNDLE_MEMBERS.video);
  const videoBytes = videoMember ? await small(source, videoMember, MAX_SMALL, f.add) : undefined;
  if (videoBytes) await checkVideo(videoBytes, manifest, key, f, options.video);
  else if (options.video) f.add('a video file was given, but the bundle holds no video statement');
  const readmeMember = members.get(BUNDLE_MEMBERS.readme);
  const readme = readmeMember ? await small(source, readmeMember, MAX_SMALL, f.add) : undefined;
  if (readme) checkReadme(readme, manifest, key, !!videoMember, f);
  return report({ recordingId: manifest.recording_id, bundleKey });
}

// ───────────────────────────── the command ─────────────────────────────

export const VERIFY_USAGE = `Usage: gatehouse verify BUNDLE --key FINGERPRINT_OR_PUBLIC_KEY [--video FILE]

Checks a Gatehouse evidence bundle (gatehouse-session-<id>.tar) offline, trusting only the key
you give: the fingerprint from the console's Settings (SHA256:...), or the server's public key
(a PEM file, or the PEM text).

  --key K       SHA256:... fingerprint, path to a PEM public key, or the PEM text
  --video FILE  also check the session's video file against the signed video statement

It checks: the bundle's key is the one you trust; the manifest's signature; the recording's
header; every chunk of recording.cast against its chain link, in order, none missing, none
added; the totals the manifest signs; every signed checkpoint and that the chain passes
through it; the video statement; README.txt's signature; and the archive itself.
Prints INTACT or TAMPERED with each problem. Exit 0 intact, 1 tampered, 2 usage or unreadable.`;

class UsageError extends Error {}

function fileSource(handle: fs.FileHandle, size: number): ByteSource {
  return {
    size,
    read: async (position, length) => {
      const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, size - position)));
      let got = 0;
      while (got < buffer.length) {
        const { bytesRead } = await handle.read(buffer, got, buffer.length - got, position + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return buffer.subarray(0, got);
    },
  };
}

async function trustedKeyOf(spec: string): Promise<TrustedKey> {
  const value = spec.trim();
  if (/^SHA256:/i.test(value)) {
    if (!/^SHA256:[A-Za-z0-9+/]{43}$/.test(value))
      throw new UsageError(`--key ${value} is not a key fingerprint (SHA256: and 43 base64 characters)`);
    return { fingerprint: value };
  }
  let pem = value;
  if (!value.includes('-----BEGIN')) {
    const stat = await fs.stat(value).catch(() => undefined);
    if (!stat?.isFile())
      throw new UsageError(`--key ${value} is neither a SHA256: fingerprint nor a readable PEM file`);
    if (stat.size > MAX_SMALL) throw new UsageError(`--key ${value} is too large to be a public key`);
    pem = await fs.readFile(value, 'utf8');
  }
  const key = parseKey(pem);
  if (typeof key === 'string') throw new UsageError(`--key: ${key}`);
  return { key: key.key };
}

function parseArgs(argv: string[]): { bundle: string; key: string; video?: string } | 'help' {
  const args = argv[0] === 'verify' ? argv.slice(1) : argv;
  if (args.length === 0 || args.includes('--help') || args.includes('-h')) return 'help';
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name = '', inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (name !== 'key' && name !== 'video') throw new UsageError(`unknown option --${name}`);
    const value = inline ?? args[(i += 1)];
    if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
    flags.set(name, value);
  }
  if (positional.length !== 1) throw new UsageError('name exactly one bundle file');
  const key = flags.get('key');
  if (!key) throw new UsageError('--key is required: the fingerprint from Settings or the server’s public key');
  return { bundle: positional[0] ?? '', key, video: flags.get('video') };
}

async function openSource(file: string, what: string): Promise<{ source: ByteSource; close: () => Promise<void> }> {
  const handle = await fs.open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read the ${what} ${file} (${error.code ?? error.message})`);
  });
  const stat = await handle.stat();
  if (!stat.isFile()) {
    await handle.close();
    throw new UsageError(`the ${what} ${file} is not a file`);
  }
  return { source: fileSource(handle, stat.size), close: () => handle.close() };
}

/** Renders a report as the command prints it. */
export function formatReport(file: string, report: BundleReport): string {
  const lines = [`Bundle: ${file}`];
  if (report.recordingId) lines.push(`Recording: ${report.recordingId}`);
  lines.push(`Trusted key: ${report.trustedKey}`);
  if (report.bundleKey && report.bundleKey !== report.trustedKey) lines.push(`Bundle's key: ${report.bundleKey}`);
  if (report.checked.length > 0) lines.push(`Checked: ${report.checked.join('; ')}`);
  if (report.intact) lines.push('INTACT: every byte matches what the trusted key signed.');
  else lines.push(`TAMPERED: ${report.problems.length} problem(s):`, ...report.problems.map((p) => `  - ${p}`));
  return `${lines.join('\n')}\n`;
}

/** `gatehouse verify`: 0 intact, 1 tampered, 2 usage or unreadable. */
export async function runVerify(
  argv: string[],
  out: (text: string) => void = (t) => process.stdout.write(t),
  err: (text: string) => void = (t) => process.stderr.write(t),
): Promise<number> {
  const opened: Array<() => Promise<void>> = [];
  try {
    const args = parseArgs(argv);
    if (args === 'help') {
      out(`${VERIFY_USAGE}\n`);
      return 0;
    }
    const trusted = await trustedKeyOf(args.key);
    const bundle = await openSource(args.bundle, 'bundle');
    opened.push(bundle.close);
    const video = args.video ? await openSource(args.video, 'video') : undefined;
    if (video) opened.push(video.close);
    const report = await verifyBundle(bundle.source, trusted, {
      fileName: basename(args.bundle),
      video: video?.source,
    });
    out(formatReport(args.bundle, report));
    return report.intact ? 0 : 1;
  } catch (error) {
    if (error instanceof UsageError) {
      err(`gatehouse verify: ${error.message}\n\n${VERIFY_USAGE}\n`);
      return 2;
    }
    err(`gatehouse verify: could not read the bundle: ${(error as Error).message}\n`);
    return 2;
  } finally {
    await Promise.all(opened.map((close) => close()));
  }
}

/** Run as a file of its own (`node verify-bundle.js BUNDLE --key ...`). */
function invokedDirectly(): boolean {
  try {
    return import.meta.url === pathToFileURL(realpathSync(process.argv[1] ?? '')).href;
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  runVerify(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    () => (process.exitCode = 2),
  );
}
