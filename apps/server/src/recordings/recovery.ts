import fs from 'node:fs/promises';
import { castHeader } from './cast-file.js';
import { type ChainEntry, chainStart } from './chain.js';
import { chainLines } from './chain-file.js';

/** What the database committed of a live recording: its row's progress and its header's digest. */
export interface CommittedProgress {
  /** Chunks committed (the chain's entry number `seq` is the last one). */
  seq: number;
  /** Where that chunk ends in the cast file (0 on rows that committed nothing yet). */
  bytes: number;
  /** That chunk's link (null on rows that committed nothing yet). */
  chainHead: string | null;
  /** SHA-256 of the header line, committed at start (null on rows older than migration 0018). */
  headerSha256: string | null;
}

/** What recovery signs: the committed progress, and whether the files agreed with it. */
export interface OrphanFinding {
  /** The files hold exactly the committed chain up to `seq` (maybe more, never committed). */
  agrees: boolean;
  /** Why they do not, in a sentence (empty when they do). */
  why: string;
  /** The statements to sign: always what the database committed, never what the files say. */
  signed: { headerSha256: string; bytes: number; chunks: number; chainHead: string };
  /** Where the committed part ends in the `.chain` file and in the cast file (when they agree). */
  chainEnd: number;
  castEnd: number;
}

/** The chain entry on line `seq` of a `.chain` file and the offset just past its line; 'missing' without one. */
async function entryAt(chainFile: string, seq: number): Promise<{ entry?: ChainEntry; end: number } | 'missing'> {
  const chain = await fs.open(chainFile, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!chain) return 'missing';
  try {
    for await (const line of chainLines(chain)) {
      if (!line.complete) break;
      if (line.number === seq) return { entry: line.entry, end: line.end };
    }
    return { end: 0 };
  } finally {
    await chain.close();
  }
}

/**
 * Compares what a dead process left on disk with what the database committed of it. The files
 * agree when the chain's entry `seq` carries the committed link and ends at the committed byte
 * (and the header is the one committed at start): anything after that was written but never
 * committed. Whatever the files say, what is signed is the committed progress, so recovery can
 * never sign more, less or other than what was seen. Throws when a file cannot be read (the
 * caller leaves the recording as it is rather than take a failed read for an edit).
 */
export async function inspectOrphan(file: string, id: string, committed: CommittedProgress): Promise<OrphanFinding> {
  const cast = await fs.open(file, 'r');
  let header: { end: number; sha256: string };
  let castSize: number;
  try {
    castSize = (await cast.stat()).size;
    header = await castHeader(cast);
  } finally {
    await cast.close();
  }
  const start = chainStart(id);
  // A row that committed no chunk yet (or predates the header's digest) stands for the header alone.
  const bytes = committed.seq === 0 && committed.bytes === 0 ? header.end : committed.bytes;
  const signed = {
    headerSha256: committed.headerSha256 ?? header.sha256,
    bytes,
    chunks: committed.seq,
    chainHead: committed.chainHead ?? start,
  };
  const finding = (why: string, chainEnd = 0): OrphanFinding => ({
    agrees: why === '',
    why,
    signed,
    chainEnd,
    castEnd: bytes,
  });
  if (committed.headerSha256 && committed.headerSha256 !== header.sha256)
    return finding('the header differs from the one committed at start');
  if (castSize < bytes) return finding(`the cast file has ${castSize} bytes, the database committed ${bytes}`);
  if (committed.seq === 0) {
    if (signed.chainHead !== start) return finding('the database committed no chunk but another chain head');
    if (bytes !== header.end) return finding(`the header ends at ${header.end}, the database committed ${bytes}`);
    return finding('', 0);
  }
  const at = await entryAt(`${file}.chain`, committed.seq);
  if (at === 'missing') return finding('the chain file (.chain) is missing');
  const { entry, end } = at;
  if (!entry || entry.seq !== committed.seq)
    return finding(`the chain has no entry ${committed.seq}, the last chunk the database committed`);
  if (entry.link !== signed.chainHead)
    return finding(`the chain's entry ${committed.seq} has another link than the database committed`);
  if (entry.offset + entry.length !== bytes)
    return finding(
      `the chain's entry ${committed.seq} ends at ${entry.offset + entry.length}, the database committed ${bytes}`,
    );
  return finding('', end);
}

/**
 * Cuts what the dead process wrote but the database never committed: chain lines after the
 * committed entry and cast bytes after its end. Files that disagree are left exactly as they are
 * (verification then shows how they differ from what was committed).
 */
export async function cutUncommitted(file: string, finding: OrphanFinding): Promise<void> {
  if (!finding.agrees) return;
  const chainFile = `${file}.chain`;
  const chainSize = (await fs.stat(chainFile).catch(() => undefined))?.size ?? 0;
  if (chainSize > finding.chainEnd) await fs.truncate(chainFile, finding.chainEnd);
  if ((await fs.stat(file)).size > finding.castEnd) await fs.truncate(file, finding.castEnd);
}
