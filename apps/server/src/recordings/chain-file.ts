import fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { type ChainEntry, MAX_CHAIN_LINE, parseChainLine } from './chain.js';
import { readAt, readLines } from './file-reader.js';

/** One line of a `.chain` file as read: its entry (undefined when malformed) and where it ends. */
export interface ChainLineRead {
  /** The line's number in the file, from 1. */
  number: number;
  entry: ChainEntry | undefined;
  /** The line ended with its newline (false for a torn last line). */
  complete: boolean;
  /** The offset just past the line's newline in the `.chain` file. */
  end: number;
}

/**
 * Streams the lines of an open `.chain` file with bounded memory (a chain of a long session holds
 * hundreds of thousands of lines). Empty lines are skipped, as they always were.
 */
export async function* chainLines(chain: FileHandle): AsyncGenerator<ChainLineRead> {
  const { size } = await chain.stat();
  let number = 0;
  for await (const { offset, line, cut, complete } of readLines(chain, 0, size, MAX_CHAIN_LINE)) {
    const end = offset + line.length + (complete ? 1 : 0);
    if (line.length === 0 && !cut) continue;
    number += 1;
    yield { number, entry: cut ? undefined : parseChainLine(line.toString('latin1')), complete, end };
  }
}

/**
 * The last complete, well-formed entry of a `.chain` file, read from its tail (a few hundred bytes
 * at any size); undefined when the file is missing or has none. A last line the writer has not
 * finished yet is passed over.
 */
export async function lastChainEntry(chainFile: string): Promise<ChainEntry | undefined> {
  const chain = await fs.open(chainFile, 'r').catch(() => undefined);
  if (!chain) return undefined;
  try {
    const { size } = await chain.stat();
    const from = Math.max(0, size - 2 * MAX_CHAIN_LINE);
    const tail = (await readAt(chain, from, size - from)).toString('latin1');
    // Complete lines only: what follows the last newline is still being written (or torn).
    const lines = tail.slice(0, tail.lastIndexOf('\n') + 1).split('\n');
    for (let i = lines.length - 1; i >= 0; i -= 1) {
      // The first piece may be the end of a longer line: only whole lines count.
      if (i === 0 && from > 0) break;
      const entry = parseChainLine(lines[i] ?? '');
      if (entry) return entry;
    }
    return undefined;
  } finally {
    await chain.close();
  }
}
