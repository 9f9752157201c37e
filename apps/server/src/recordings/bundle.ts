import { type KeyObject, createHash, createPublicKey, sign } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { type SignedCheckpoint, type SignedManifest, keyFingerprint } from './chain.js';

/**
 * The evidence bundle of a finished recording: one POSIX ustar file holding the cast, its chain,
 * the signed manifest, the signed checkpoints, the signed video statement (when there is a video),
 * the public key and a signed README. Streamed: the cast is never held in memory. The offline
 * verifier (apps/agent/src/evidence/verify-bundle.ts) reads exactly this; the tamper matrix
 * (tamper-matrix.security.test.ts) holds the two together.
 */

const BLOCK = 512;
/** Sizes from 8 GiB on do not fit ustar's 11 octal digits: base-256 (GNU), as tar readers accept. */
const OCTAL_LIMIT = 8 ** 11;

/** The bundle's file name for a recording. */
export function bundleFileName(recordingId: string): string {
  return `gatehouse-session-${recordingId}.tar`;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** One ustar header: a regular file, mode 0644, owned by root, checksummed. */
export function tarHeader(name: string, size: number, mtime: number): Buffer {
  const header = Buffer.alloc(BLOCK);
  header.write(name, 0, 100, 'latin1');
  header.write(octal(0o644, 8), 100, 'latin1');
  header.write(octal(0, 8), 108, 'latin1');
  header.write(octal(0, 8), 116, 'latin1');
  if (size < OCTAL_LIMIT) header.write(octal(size, 12), 124, 'latin1');
  else {
    header[124] = 0x80;
    let rest = size;
    for (let i = 135; i > 124; i -= 1) {
      header[i] = rest % 256;
      rest = Math.floor(rest / 256);
    }
  }
  header.write(octal(Math.max(0, Math.floor(mtime)), 12), 136, 'latin1');
  header.write('        ', 148, 'latin1');
  header.write('0', 156, 'latin1');
  header.write('ustar\u000000', 257, 'latin1');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return header;
}

/** JSON with sorted keys (the order signatures use); pretty for the files people open. */
function canonicalText(object: object, pretty: boolean): string {
  const ordered = Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)));
  return pretty ? `${JSON.stringify(ordered, null, 2)}\n` : JSON.stringify(ordered);
}

/** What the server states of a recording's video when it makes a bundle. */
export interface VideoStatement {
  recording_id: string;
  sha256: string;
  bytes: number;
  signature: string;
}

/** Signs a video statement with the recording key (canonical JSON, as manifests are signed). */
export function signVideoStatement(body: Omit<VideoStatement, 'signature'>, privateKey: KeyObject): VideoStatement {
  const clean = { recording_id: body.recording_id, sha256: body.sha256, bytes: body.bytes };
  return { ...clean, signature: sign(null, Buffer.from(canonicalText(clean, false)), privateKey).toString('base64') };
}

/** SHA-256 and length of the first `bytes` bytes of a file, streamed. */
export async function fileDigest(file: string, bytes: number): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let read = 0;
  if (bytes > 0)
    for await (const piece of fs.createReadStream(file, { start: 0, end: bytes - 1 })) {
      hash.update(piece as Buffer);
      read += (piece as Buffer).length;
    }
  if (read !== bytes) throw new Error(`the file holds ${read} of its ${bytes} committed bytes`);
  return { sha256: hash.digest('hex'), bytes };
}

/** The README: what each file is and how to check it; signed, so an edited README is found. */
export function bundleReadme(recordingId: string, fingerprint: string, video: boolean, signingKey: KeyObject): string {
  const name = bundleFileName(recordingId);
  const text = `Gatehouse evidence bundle
Recording: ${recordingId}
Signed by the key ${fingerprint} (compare it with the fingerprint in the console's Settings, not with this line)

What is in this file
  recording.cast        the session as recorded (asciicast v2: play it with asciinema)
  recording.cast.chain  one line per chunk of recording.cast: number, offset, length and a SHA-256 link
                        chaining every chunk to the one before it
  manifest.json         what the server signed when the session ended: the header's SHA-256, the byte
                        and chunk counts, the last link of the chain; with its Ed25519 signature
  checkpoints.jsonl     signed checkpoints taken while the session was live: where the chain stood
${video ? '  video.json            the SHA-256 and size of the session\u2019s video, signed when this bundle was made\n' : ''}  public-key.pem        the server's public recording key (Ed25519)
  README.txt            this text; its last line signs it

How to check it, on any machine with Node.js 20 or later
  npx gatehouse verify ${name} --key <fingerprint from Settings>
(in a Gatehouse checkout or installation), or with the verifier's single file, which needs nothing
but Node (apps/agent/dist/evidence/verify-bundle.js of Gatehouse):
  node verify-bundle.js ${name} --key <fingerprint from Settings>
The verifier trusts only the key you give (a SHA256: fingerprint, or the public key as a PEM file).
It checks that the bundle's key is that key; the manifest's signature; the recording's header;
every chunk of recording.cast against its link in the chain, in order, none missing and none added;
the totals the manifest signs; every checkpoint's signature and that the chain passes through it;
${video ? "the video statement's signature (add --video FILE to check the video itself); " : ''}this README's signature;
and the archive's own structure. It prints INTACT, or TAMPERED with each problem: which file,
which chunk and which bytes. Exit status: 0 intact, 1 tampered, 2 the bundle could not be read.
`;
  return `${text}Signature: ${sign(null, Buffer.from(text), signingKey).toString('base64')}\n`;
}

/** Everything a bundle is made of. */
export interface BundleParts {
  recordingId: string;
  endedOn: Date;
  cast: { path: string; size: number };
  chain: { path: string; size: number };
  manifest: SignedManifest;
  checkpoints: SignedCheckpoint[];
  video?: { sha256: string; bytes: number };
  /** The key that signed the manifest, to sign the bundle-time statements too. */
  signingKey: KeyObject;
}

type Member = { name: string; size: number; bytes?: Buffer; path?: string };

/** The bundle as a stream, with its exact length (for Content-Length). */
export function evidenceBundle(parts: BundleParts): { size: number; stream: Readable } {
  const publicKey = createPublicKey(parts.signingKey);
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const small = (name: string, text: string): Member => {
    const bytes = Buffer.from(text);
    return { name, size: bytes.length, bytes };
  };
  const members: Member[] = [
    { name: 'recording.cast', size: parts.cast.size, path: parts.cast.path },
    { name: 'recording.cast.chain', size: parts.chain.size, path: parts.chain.path },
    small('manifest.json', canonicalText(parts.manifest, true)),
    small('checkpoints.jsonl', parts.checkpoints.map((c) => `${canonicalText(c, false)}\n`).join('')),
  ];
  if (parts.video) {
    const statement = signVideoStatement({ recording_id: parts.recordingId, ...parts.video }, parts.signingKey);
    members.push(small('video.json', canonicalText(statement, true)));
  }
  members.push(small('public-key.pem', pem));
  members.push(
    small('README.txt', bundleReadme(parts.recordingId, keyFingerprint(pem), !!parts.video, parts.signingKey)),
  );
  const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;
  const size = members.reduce((sum, m) => sum + BLOCK + m.size + padding(m.size), 2 * BLOCK);
  const mtime = parts.endedOn.getTime() / 1000;
  async function* bytes(): AsyncGenerator<Buffer> {
    for (const member of members) {
      yield tarHeader(member.name, member.size, mtime);
      if (member.bytes) yield member.bytes;
      else if (member.path && member.size > 0) {
        let sent = 0;
        for await (const piece of fs.createReadStream(member.path, { start: 0, end: member.size - 1 })) {
          sent += (piece as Buffer).length;
          yield piece as Buffer;
        }
        if (sent !== member.size) throw new Error(`${member.name} shrank while the bundle was sent`);
      }
      if (padding(member.size) > 0) yield Buffer.alloc(padding(member.size));
    }
    yield Buffer.alloc(2 * BLOCK);
  }
  return { size, stream: Readable.from(bytes(), { objectMode: false }) };
}
