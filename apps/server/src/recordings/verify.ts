import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { type SignedManifest, chainNext, chainStart, manifestSignatureValid } from './chain.js';

/** What checking a recording found. */
export interface Verification {
  intact: boolean;
  problems: string[];
}

/**
 * Checks a finished recording against its signed manifest: the signature (with the server's
 * public key), the header, every chunk's offset, length and chain link, and the totals.
 */
export async function verifyRecording(
  file: string,
  manifest: SignedManifest,
  publicKeyPem: string,
): Promise<Verification> {
  const problems: string[] = [];
  if (!manifestSignatureValid(manifest, publicKeyPem))
    problems.push('the manifest’s signature does not match the server’s key');
  const bytes = await fs.readFile(file);
  const headerEnd = bytes.indexOf(0x0a) + 1;
  if (createHash('sha256').update(bytes.subarray(0, headerEnd)).digest('hex') !== manifest.header_sha256) {
    problems.push('the header was changed');
  }
  const lines = (await fs.readFile(`${file}.chain`, 'utf8')).split('\n').filter(Boolean);
  let link = chainStart(manifest.recording_id);
  let offset = headerEnd;
  for (const line of lines) {
    const [seq, at, length, expected] = line.split(' ');
    const start = Number(at);
    const size = Number(length);
    if (start !== offset) problems.push(`chunk ${seq} starts at ${start}, expected ${offset}`);
    link = chainNext(link, bytes.subarray(start, start + size));
    if (link !== expected) {
      problems.push(`chunk ${seq} was changed`);
      link = expected ?? link;
    }
    offset = start + size;
  }
  if (offset !== bytes.length) problems.push(`the file has ${bytes.length - offset} bytes the chain does not cover`);
  if (lines.length !== manifest.chunks)
    problems.push(`the chain has ${lines.length} chunks, the manifest says ${manifest.chunks}`);
  if (link !== manifest.chain_head) problems.push('the chain does not end where the manifest says');
  if (bytes.length !== manifest.bytes)
    problems.push(`the file has ${bytes.length} bytes, the manifest says ${manifest.bytes}`);
  return { intact: problems.length === 0, problems };
}
