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
  /**
   * The RDP video as committed when the manifest was signed, only when its upload was already
   * final then (video.service.ts); its own signed video manifest covers it in every case.
   */
  video?: ManifestVideo;
}

/** A final video's totals, as a terminal manifest states them. */
export interface ManifestVideo {
  bytes: number;
  pieces: number;
  chain_head: string;
}

/** A manifest with its Ed25519 signature (base64) and the public key (PEM) that checks it. */
export interface SignedManifest extends ManifestBody {
  signature: string;
  public_key: string;
}

/** A value with the keys of its objects sorted, at every depth (JSONB answers keys in its own order). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [k, sorted(v)]),
  );
}

/** The signed bytes of a body: its JSON with the keys sorted (manifests, checkpoints, video manifests). */
function canonical(body: ManifestBody | CheckpointBody | VideoManifestBody): Buffer {
  return Buffer.from(JSON.stringify(sorted(body)));
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

/** The start of a video's piece chain: its recording's id hashed (never equal to the cast chain's start). */
export function videoChainStart(recordingId: string): string {
  return createHash('sha256').update(`gatehouse-video:${recordingId}`).digest('hex');
}

/**
 * The next link of a video's piece chain: SHA-256 over the previous link (32 bytes), the piece's
 * offset and length (each 8 bytes, unsigned big-endian) and the piece's SHA-256 (32 bytes). A
 * changed, moved, dropped or reordered piece changes every link after it.
 */
export function videoChainNext(previous: string, offset: number, length: number, sha256: string): string {
  const numbers = Buffer.alloc(16);
  numbers.writeBigUInt64BE(BigInt(offset), 0);
  numbers.writeBigUInt64BE(BigInt(length), 8);
  return createHash('sha256')
    .update(Buffer.from(previous, 'hex'))
    .update(numbers)
    .update(Buffer.from(sha256, 'hex'))
    .digest('hex');
}

/** One committed piece of a video (recording_video_pieces; a `.mp4.chain` line). */
export interface VideoPiece {
  seq: number;
  offset: number;
  length: number;
  sha256: string;
  chain: string;
}

/** A `.mp4.chain` line: `seq offset length sha256 chain` and a newline. */
export function videoPieceLine(piece: VideoPiece): string {
  return `${piece.seq} ${piece.offset} ${piece.length} ${piece.sha256} ${piece.chain}\n`;
}

/** A `.mp4.chain` line read back (without its newline), or undefined when it is not one. */
export function parseVideoPieceLine(line: string): VideoPiece | undefined {
  const match = /^(\d{1,15}) (\d{1,16}) (\d{1,16}) ([0-9a-f]{64}) ([0-9a-f]{64})$/.exec(line);
  if (!match) return undefined;
  const [, seq, offset, length, sha256, chain] = match;
  const piece = { seq: Number(seq), offset: Number(offset), length: Number(length), sha256: sha256!, chain: chain! };
  return Number.isSafeInteger(piece.offset + piece.length) ? piece : undefined;
}

/**
 * What a video manifest states: the recording's video was `bytes` long in `pieces` pieces whose
 * chain ends at `chain_head`; `end` is 'final' when the uploader said it was complete, 'cut' when
 * it never did and the server signed what was committed after a grace period.
 */
export interface VideoManifestBody {
  statement: 'gatehouse-video';
  recording_id: string;
  bytes: number;
  pieces: number;
  chain_head: string;
  end: 'final' | 'cut';
  signed_at: string;
  key_fingerprint: string;
}

/** A video manifest with its Ed25519 signature (base64) and the public key (PEM). */
export interface SignedVideoManifest extends VideoManifestBody {
  signature: string;
  public_key: string;
}

/** Signs a video manifest with the recording signing key (as terminal manifests are signed). */
export function signVideoManifest(
  body: Omit<VideoManifestBody, 'statement' | 'key_fingerprint' | 'signed_at'> & { signed_at?: string },
  privateKey: string | KeyObject,
): SignedVideoManifest {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  const publicKey = createPublicKey(key);
  const clean: VideoManifestBody = {
    statement: 'gatehouse-video',
    recording_id: body.recording_id,
    bytes: body.bytes,
    pieces: body.pieces,
    chain_head: body.chain_head,
    end: body.end,
    signed_at: body.signed_at ?? new Date().toISOString(),
    key_fingerprint: keyFingerprint(publicKey),
  };
  const signature = sign(null, canonical(clean), key).toString('base64');
  return { ...clean, signature, public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** True when a video manifest's signature matches its statements and the given public key. */
export function videoManifestValid(manifest: SignedVideoManifest, publicKeyPem: string | KeyObject): boolean {
  const { signature, public_key: _ignored, ...body } = manifest;
  if (body.statement !== 'gatehouse-video') return false;
  try {
    const key = typeof publicKeyPem === 'string' ? createPublicKey(publicKeyPem) : publicKeyPem;
    return verify(null, canonical(body), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
