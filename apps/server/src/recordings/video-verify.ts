import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { KeyObject } from 'node:crypto';
import {
  type ManifestVideo,
  type SignedVideoManifest,
  type VideoPiece,
  parseVideoPieceLine,
  videoChainNext,
  videoChainStart,
  videoManifestValid,
} from './chain.js';

/** What checking a recording's video found. */
export interface VideoVerification {
  /**
   * intact: every piece matches its digest, the chain and the signed video manifest; tampered:
   * something differs (see problems); uploading: no signature yet and what is there matches;
   * uncovered: stored before video digests existed (migration 0025), nothing to check it against.
   */
  status: 'intact' | 'tampered' | 'uploading' | 'uncovered';
  problems: string[];
  /** Bytes and pieces the checked piece list covers. */
  bytes: number;
  pieces: number;
  /** 'cut' when the upload never completed and the server signed what it had committed. */
  end?: 'final' | 'cut';
}

/** What is checked: the pieces (committed rows, or a `.mp4.chain` file) against the video's bytes. */
export interface VideoCheck {
  recordingId: string;
  /** The signed video manifest, or null when none exists yet. */
  manifest: SignedVideoManifest | null;
  /** The key the manifest must be signed with (the caller decides which key it trusts). */
  publicKey: string | KeyObject;
  /** The pieces in order. */
  pieces: Iterable<VideoPiece> | AsyncIterable<VideoPiece>;
  /** The video's bytes from its first, or undefined when the file (or object) is not there. */
  open: () => Promise<AsyncIterable<Buffer | string> | undefined>;
  /** What the database committed (the row), checked against the manifest. */
  committed?: { bytes: number; pieces: number; chainHead: string | null };
  /** What the terminal recording's signed manifest states of the video, when it does. */
  terminal?: ManifestVideo;
  /** Whether a signature is due (the upload is final): a missing manifest is then a finding. */
  final?: boolean;
}

/** Problems listed one by one; beyond this they are counted. */
const MAX_PROBLEMS = 50;

/** Reads a stream in exact lengths: each piece's bytes are hashed as they pass, never held. */
class ExactReader {
  private rest: Buffer = Buffer.alloc(0);
  private done = false;
  constructor(private readonly source: AsyncIterator<Buffer | string>) {}

  /** Hashes the next `length` bytes; answers the digest and how many bytes there were. */
  async digest(length: number): Promise<{ sha256: string; got: number }> {
    const hash = createHash('sha256');
    let got = 0;
    while (got < length) {
      if (this.rest.length === 0) {
        if (this.done) break;
        const next = await this.source.next();
        if (next.done) {
          this.done = true;
          break;
        }
        this.rest = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
        continue;
      }
      const take = Math.min(length - got, this.rest.length);
      hash.update(this.rest.subarray(0, take));
      this.rest = this.rest.subarray(take);
      got += take;
    }
    return { sha256: hash.digest('hex'), got };
  }

  /** How many bytes are left after what was read (the stream drained). */
  async remaining(): Promise<number> {
    let left = this.rest.length;
    this.rest = Buffer.alloc(0);
    while (!this.done) {
      const next = await this.source.next();
      if (next.done) this.done = true;
      else left += next.value.length;
    }
    return left;
  }
}

/**
 * Checks a recording's RDP video: each piece's bytes against its SHA-256 (a changed byte names the
 * piece and its byte range), the chain of pieces from the recording's id (a moved, dropped or
 * edited piece digest breaks it), the totals and the chain's head against the signed video
 * manifest and its signature, what the database committed, and the terminal manifest's statement
 * of the video. Streamed: bounded memory at any size.
 */
export async function verifyVideo(check: VideoCheck): Promise<VideoVerification> {
  const problems: string[] = [];
  let more = 0;
  const problem = (text: string) => (problems.length < MAX_PROBLEMS ? problems.push(text) : (more += 1));
  const manifest = check.manifest;
  if (manifest) {
    if (manifest.recording_id !== check.recordingId) problem('the video manifest is another recording’s');
    if (!videoManifestValid(manifest, check.publicKey))
      problem('the video manifest’s signature does not match the server’s key');
  } else if (check.final) problem('the video is complete but its signed video manifest is missing');
  const stream = await check.open();
  if (!stream) problem('the video file is missing from the recording storage');
  const reader = stream ? new ExactReader(stream[Symbol.asyncIterator]()) : undefined;
  let link = videoChainStart(check.recordingId);
  let offset = 0;
  let count = 0;
  for await (const piece of check.pieces) {
    count += 1;
    const range = `bytes ${piece.offset}–${piece.offset + piece.length - 1}`;
    if (piece.seq !== count) problem(`video piece ${count} is numbered ${piece.seq}`);
    if (piece.offset !== offset) problem(`video piece ${piece.seq} starts at byte ${piece.offset}, expected ${offset}`);
    if (reader) {
      const { sha256, got } = await reader.digest(piece.length);
      if (got < piece.length)
        problem(`video piece ${piece.seq} (${range}) is missing: the file ends at byte ${piece.offset + got}`);
      else if (sha256 !== piece.sha256) problem(`video piece ${piece.seq} (${range}) was changed`);
    }
    if (videoChainNext(link, piece.offset, piece.length, piece.sha256) !== piece.chain)
      problem(`video piece ${piece.seq} (${range}): its recorded digest does not chain to the piece before it`);
    link = piece.chain;
    offset = piece.offset + piece.length;
  }
  // Bytes past the last committed piece: a piece being written while unsigned, an addition once signed.
  const extra = reader ? await reader.remaining() : 0;
  if (extra > 0 && manifest) problem(`the video file has ${extra} bytes past the ${offset} its pieces cover`);
  if (manifest) {
    if (count !== manifest.pieces) problem(`the video has ${count} pieces, its manifest says ${manifest.pieces}`);
    if (offset !== manifest.bytes)
      problem(`the video’s pieces cover ${offset} bytes, its manifest says ${manifest.bytes}`);
    if (link !== manifest.chain_head && count === manifest.pieces)
      problem('the video’s chain does not end where its manifest says');
  }
  const committed = check.committed;
  const signed = manifest;
  if (committed && signed) {
    if (committed.pieces !== signed.pieces)
      problem(`the database committed ${committed.pieces} video pieces, the video manifest says ${signed.pieces}`);
    if (committed.bytes !== signed.bytes)
      problem(`the database committed ${committed.bytes} video bytes, the video manifest says ${signed.bytes}`);
    if (committed.chainHead !== signed.chain_head)
      problem('the database committed another video chain head than the video manifest’s');
  }
  const terminal = check.terminal;
  if (terminal) {
    if (terminal.pieces !== count || terminal.bytes !== offset || terminal.chain_head !== link)
      problem('the video is not the one the recording’s signed manifest states');
  }
  if (more > 0) problems.push(`and ${more} more problems`);
  const status = problems.length > 0 ? 'tampered' : manifest ? 'intact' : 'uploading';
  return { status, problems, bytes: offset, pieces: count, ...(manifest ? { end: manifest.end } : {}) };
}

/** A `.mp4.chain` file's pieces, line by line; a line that is not a piece is a finding. */
export async function* videoPiecesFromFile(file: string, problem: (text: string) => void): AsyncGenerator<VideoPiece> {
  const stream = fs.createReadStream(file, { encoding: 'utf8' });
  let rest = '';
  let number = 0;
  const parse = function* (line: string) {
    number += 1;
    const piece = parseVideoPieceLine(line);
    if (piece) yield piece;
    else problem(`line ${number} of the video’s piece list is not a piece`);
  };
  for await (const text of stream) {
    rest += text as string;
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) yield* parse(line);
    if (rest.length > 1024) {
      yield* parse(rest);
      rest = '';
    }
  }
  if (rest.length > 0) yield* parse(rest);
}
