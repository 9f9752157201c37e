import fs from 'node:fs/promises';
import { castHeader } from './cast-file.js';
import {
  type SignedCheckpoint,
  type SignedManifest,
  chainStart,
  checkpointValid,
  manifestSignatureValid,
  nextLink,
} from './chain.js';
import { chainLines } from './chain-file.js';
import { SequentialReader } from './file-reader.js';

/** What checking a recording found. */
export interface Verification {
  intact: boolean;
  problems: string[];
}

/** What else is known of a stored recording, checked beside its files. */
export interface VerifyContext {
  /** The checkpoints signed while it was live (recording_checkpoints). */
  checkpoints?: readonly SignedCheckpoint[];
  /** Public keys (PEM) a checkpoint may be signed with; by default the manifest's key given. */
  checkpointKeys?: readonly string[];
  /** What the database committed of it: the recording row's progress. */
  committed?: { bytes: number; chunks: number; chainHead: string | null };
}

/** Problems listed one by one; beyond this they are counted (a rewritten file has one per chunk). */
const MAX_PROBLEMS = 50;

/**
 * Checks a finished recording against its signed manifest: the signature (with the server's
 * public key), the header, every chunk's offset, length and chain link, and the totals; then each
 * signed checkpoint (its signature, and that the chain's entry `seq` has its link and ends where
 * it says) and what the database committed. Both files are streamed (the chain line by line, the
 * chunks through one buffer), so a recording of any size is checked in bounded memory.
 */
export async function verifyRecording(
  file: string,
  manifest: SignedManifest,
  publicKeyPem: string,
  context: VerifyContext = {},
): Promise<Verification> {
  const problems: string[] = [];
  let more = 0;
  const problem = (text: string) => (problems.length < MAX_PROBLEMS ? problems.push(text) : (more += 1));
  if (!manifestSignatureValid(manifest, publicKeyPem))
    problem('the manifest’s signature does not match the server’s key');
  const checkpoints = checkpointsBySeq(manifest, context, problem);
  const cast = await fs.open(file, 'r');
  // A chain file that is gone is a finding, not a failure: every chunk is then unaccounted for.
  const chain = await fs.open(`${file}.chain`, 'r').catch(async (error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    await cast.close();
    throw error;
  });
  if (!chain) problem('the chain file (.chain) is missing');
  try {
    const { size } = await cast.stat();
    const header = await castHeader(cast);
    if (header.sha256 !== manifest.header_sha256) problem('the header was changed');
    const reader = new SequentialReader(cast);
    let link = chainStart(manifest.recording_id);
    let offset = header.end;
    let lines = 0;
    for await (const { number, entry } of chain ? chainLines(chain) : []) {
      lines += 1;
      if (!entry) {
        problem(`line ${number} of the chain is not a chain entry`);
        continue;
      }
      if (entry.offset !== offset) problem(`chunk ${entry.seq} starts at ${entry.offset}, expected ${offset}`);
      const hash = nextLink(link);
      for await (const piece of reader.range(entry.offset, entry.length)) hash.update(piece);
      link = hash.digest('hex');
      if (link !== entry.link) {
        problem(`chunk ${entry.seq} was changed`);
        link = entry.link;
      }
      offset = entry.offset + entry.length;
      const checkpoint = checkpoints.get(lines);
      checkpoints.delete(lines);
      if (checkpoint) {
        const at = `the checkpoint at chunk ${checkpoint.seq} (signed ${checkpoint.at})`;
        if (entry.seq !== checkpoint.seq) problem(`${at}: line ${number} of the chain is chunk ${entry.seq}`);
        if (entry.link !== checkpoint.chain_head) problem(`${at}: the chain’s entry ${lines} has another link`);
        if (offset !== checkpoint.bytes)
          problem(`${at}: the chain’s entry ${lines} ends at byte ${offset}, the checkpoint says ${checkpoint.bytes}`);
      }
    }
    for (const checkpoint of checkpoints.values()) {
      const at = `the checkpoint at chunk ${checkpoint.seq} (signed ${checkpoint.at})`;
      problem(
        checkpoint.seq > lines
          ? `${at}: the chain has only ${lines} chunks`
          : `${at}: line ${checkpoint.seq} of the chain is not a chain entry`,
      );
    }
    if (offset < size) problem(`the file has ${size - offset} bytes the chain does not cover`);
    if (offset > size) problem(`the chain covers ${offset - size} bytes past the end of the file`);
    if (lines !== manifest.chunks) problem(`the chain has ${lines} chunks, the manifest says ${manifest.chunks}`);
    if (link !== manifest.chain_head) problem('the chain does not end where the manifest says');
    if (size !== manifest.bytes) problem(`the file has ${size} bytes, the manifest says ${manifest.bytes}`);
    committedProblems(manifest, context, problem);
  } finally {
    await Promise.all([cast.close(), chain?.close()]);
  }
  if (more > 0) problems.push(`and ${more} more problems`);
  return { intact: problems.length === 0, problems };
}

/** The checkpoints whose signature holds, by chunk number; the others reported. */
function checkpointsBySeq(
  manifest: SignedManifest,
  context: VerifyContext,
  problem: (text: string) => void,
): Map<number, SignedCheckpoint> {
  const keys = context.checkpointKeys ?? [manifest.public_key];
  const bySeq = new Map<number, SignedCheckpoint>();
  for (const checkpoint of context.checkpoints ?? []) {
    const at = `the checkpoint at chunk ${checkpoint.seq} (signed ${checkpoint.at})`;
    if (checkpoint.recording_id !== manifest.recording_id) problem(`${at} is another recording’s`);
    else if (!keys.some((key) => checkpointValid(checkpoint, key)))
      problem(`${at}: its signature does not match the server’s key`);
    else bySeq.set(checkpoint.seq, checkpoint);
  }
  return bySeq;
}

/** Differences between what the database committed and what the manifest states. */
function committedProblems(manifest: SignedManifest, context: VerifyContext, problem: (text: string) => void): void {
  const committed = context.committed;
  if (!committed) return;
  if (committed.chunks !== manifest.chunks)
    problem(`the database committed ${committed.chunks} chunks, the manifest says ${manifest.chunks}`);
  if (committed.bytes !== manifest.bytes)
    problem(`the database committed ${committed.bytes} bytes, the manifest says ${manifest.bytes}`);
  if (committed.chainHead !== manifest.chain_head)
    problem('the database committed another chain head than the manifest’s');
}
