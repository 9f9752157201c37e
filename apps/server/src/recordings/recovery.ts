import fs from 'node:fs/promises';
import { castHeader } from './cast-file.js';
import { type ChainEntry, chainStart } from './chain.js';
import { chainLines } from './chain-file.js';

/** What reached the disk of a recording whose process died, read without loading its files. */
export interface OrphanFiles {
  headerSha256: string;
  /** Bytes the chain covers: where its last chunk ends (the header's end when it has none). */
  covered: number;
  /** Chunks in the chain: its complete lines, as verification counts them. */
  chunks: number;
  chainHead: string;
  /** Length of the cast file now. */
  castSize: number;
  /** Every complete chain line is an entry, each starting where the one before ended. */
  wellFormed: boolean;
  /** The chain file ends inside a line (its writer stopped mid-line): keep only this many bytes. */
  tornChainAt: number | undefined;
}

/**
 * Reads what a dead process left of a recording: the header line, and the chain line by line with
 * the cast file's length (never the cast file whole). Throws when either file cannot be read, so
 * the caller leaves the recording as it is rather than taking a failed read for an empty file.
 */
export async function readOrphan(file: string, recordingId: string): Promise<OrphanFiles> {
  const cast = await fs.open(file, 'r');
  try {
    const castSize = (await cast.stat()).size;
    const header = await castHeader(cast);
    const chain = await fs.open(`${file}.chain`, 'r');
    try {
      let last: ChainEntry | undefined;
      let chunks = 0;
      let wellFormed = true;
      let tornChainAt: number | undefined;
      let expected = header.end;
      let end = 0;
      for await (const line of chainLines(chain)) {
        if (!line.complete) {
          tornChainAt = end;
          break;
        }
        end = line.end;
        chunks += 1;
        if (!line.entry || line.entry.offset !== expected) wellFormed = false;
        if (line.entry) {
          last = line.entry;
          expected = line.entry.offset + line.entry.length;
        }
      }
      return {
        headerSha256: header.sha256,
        covered: last ? last.offset + last.length : header.end,
        chunks,
        chainHead: last?.link ?? chainStart(recordingId),
        castSize,
        wellFormed,
        tornChainAt,
      };
    } finally {
      await chain.close();
    }
  } finally {
    await cast.close();
  }
}

/**
 * Cuts what the dead process wrote but never confirmed: a torn last chain line, and cast bytes
 * after the last chained chunk. Only a well-formed chain is trusted to say where data ends; a
 * damaged one leaves both files exactly as they are (verification then shows the damage).
 */
export async function cutUnconfirmed(file: string, found: OrphanFiles): Promise<void> {
  if (!found.wellFormed) return;
  if (found.tornChainAt !== undefined) await fs.truncate(`${file}.chain`, found.tornChainAt);
  if (found.castSize > found.covered) await fs.truncate(file, found.covered);
}
