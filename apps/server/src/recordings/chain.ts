import { type Hash, type KeyObject, createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';

/** The start of every chain: a recording's id hashed, so chains of two recordings never match. */
export function chainStart(recordingId: string): string {
  return createHash('sha256').update(`gatehouse-recording:${recordingId}`).digest('hex');
}

/** The next link: SHA-256 over the previous link and the chunk's bytes. */
export function chainNext(previous: string, chunk: Buffer): string {
  return nextLink(previous).update(chunk).digest('hex');
}

/** The next link computed over a chunk fed in pieces: `update` each piece, then `digest('hex')`. */
export function nextLink(previous: string): Hash {
  return createHash('sha256').update(previous, 'hex');
}

/** One line of a `.chain` file: the chunk's number (from 1), where it lies in the cast file, its link. */
export interface ChainEntry {
  seq: number;
  offset: number;
  length: number;
  link: string;
}

/** A `.chain` line as the recorder writes it: `seq offset length link` and a newline. */
export function chainLine(entry: ChainEntry): string {
  return `${entry.seq} ${entry.offset} ${entry.length} ${entry.link}\n`;
}

/** Longest line a well-formed `.chain` file holds (numbers and a 64-digit link), with room to spare. */
export const MAX_CHAIN_LINE = 256;

/** A `.chain` line read back (without its newline), or undefined when it is not one. */
export function parseChainLine(line: string): ChainEntry | undefined {
  const match = /^(\d{1,15}) (\d{1,16}) (\d{1,16}) ([0-9a-f]{64})$/.exec(line);
  if (!match) return undefined;
  const [, seq, offset, length, link] = match;
  const entry = { seq: Number(seq), offset: Number(offset), length: Number(length), link: link! };
  return Number.isSafeInteger(entry.offset + entry.length) ? entry : undefined;
}

/** What a finished recording's manifest states; the signature covers its canonical JSON. */
export interface ManifestBody {
  recording_id: string;
  started_on: string;
  ended_on: string;
  header_sha256: string;
  bytes: number;
  chunks: number;
  chain_head: string;
  end_reason: string;
}

/** A manifest with its Ed25519 signature (base64) and the public key (PEM) that checks it. */
export interface SignedManifest extends ManifestBody {
  signature: string;
  public_key: string;
}

/** The signed bytes of a body: its JSON with the keys sorted (manifests and checkpoints alike). */
function canonical(body: ManifestBody | CheckpointBody): Buffer {
  const ordered = Object.fromEntries(Object.entries(body).sort(([a], [b]) => a.localeCompare(b)));
  return Buffer.from(JSON.stringify(ordered));
}

/** Signs a manifest with the server's Ed25519 key (PKCS#8 PEM, or parsed once by a caller signing many). */
export function signManifest(body: ManifestBody, privateKey: string | KeyObject): SignedManifest {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  const signature = sign(null, canonical(body), key).toString('base64');
  const publicKey = createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
  return { ...body, signature, public_key: publicKey };
}

/** True when the signature matches the manifest's statements and the given public key. */
export function manifestSignatureValid(manifest: SignedManifest, publicKeyPem: string): boolean {
  const { signature, public_key: _ignored, ...body } = manifest;
  try {
    return verify(null, canonical(body), createPublicKey(publicKeyPem), Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/**
 * What a signed checkpoint states: at time `at` the chain's entry number `seq` had link
 * `chain_head` and ended at byte `bytes` of the cast file. Signed while the session is live, so
 * what was recorded before a crash or an edit stays provable.
 */
export interface CheckpointBody {
  recording_id: string;
  seq: number;
  bytes: number;
  chain_head: string;
  /** ISO time of the signature. */
  at: string;
}

/** A checkpoint with its Ed25519 signature (base64) over the canonical JSON of its body. */
export type SignedCheckpoint = CheckpointBody & { signature: string };

/** The body of a checkpoint, and nothing else (a row or a parsed file may carry more fields). */
function checkpointBody(c: CheckpointBody): CheckpointBody {
  return { recording_id: c.recording_id, seq: c.seq, bytes: c.bytes, chain_head: c.chain_head, at: c.at };
}

/** Signs a checkpoint with the server's Ed25519 key. */
export function signCheckpoint(body: CheckpointBody, privateKey: string | KeyObject): SignedCheckpoint {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  const clean = checkpointBody(body);
  return { ...clean, signature: sign(null, canonical(clean), key).toString('base64') };
}

/** True when the checkpoint's signature matches its statements and the given public key. */
export function checkpointValid(checkpoint: SignedCheckpoint, publicKey: string | KeyObject): boolean {
  try {
    const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
    return verify(null, canonical(checkpointBody(checkpoint)), key, Buffer.from(checkpoint.signature, 'base64'));
  } catch {
    return false;
  }
}

/**
 * A public key's fingerprint, OpenSSH style: `SHA256:` and the unpadded base64 of the SHA-256 of
 * its SPKI DER bytes. Accepts a public key (PEM or KeyObject) or a private key (its public half).
 */
export function keyFingerprint(key: string | KeyObject): string {
  const publicKey = typeof key !== 'string' && key.type === 'public' ? key : createPublicKey(key);
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return `SHA256:${createHash('sha256').update(der).digest('base64').replace(/=+$/, '')}`;
}
