import { createHash } from 'node:crypto';

const KEY_TYPES = new Set([
  'ssh-ed25519',
  'ssh-rsa',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
]);

/** A parsed OpenSSH public key. */
export interface ParsedPublicKey {
  type: string;
  /** `type base64`, without the comment. */
  normalized: string;
  /** As `ssh-keygen -l` prints it: SHA256:base64 without padding. */
  fingerprint: string;
  comment: string;
}

function readString(blob: Buffer, offset: number): { value: Buffer; next: number } | undefined {
  if (offset + 4 > blob.length) return undefined;
  const length = blob.readUInt32BE(offset);
  if (offset + 4 + length > blob.length) return undefined;
  return { value: blob.subarray(offset + 4, offset + 4 + length), next: offset + 4 + length };
}

/** Parses one OpenSSH public key line, or answers why it is not one. */
export function parsePublicKey(line: string): ParsedPublicKey | { error: string } {
  const parts = line.trim().split(/\s+/);
  const [type, data] = parts;
  if (!type || !data) return { error: 'Paste one public key line: its type, the key, and an optional comment' };
  if (!KEY_TYPES.has(type)) {
    return {
      error: `Unsupported key type ${type.slice(0, 40)}; use ssh-ed25519, ecdsa-sha2-nistp256/384/521 or ssh-rsa`,
    };
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return { error: 'The key is not valid base64' };
  const blob = Buffer.from(data, 'base64');
  const inner = readString(blob, 0);
  if (!inner || inner.value.toString('latin1') !== type) return { error: 'The key’s content does not match its type' };
  if (type === 'ssh-rsa') {
    const exponent = readString(blob, inner.next);
    const modulus = exponent && readString(blob, exponent.next);
    if (!modulus) return { error: 'The RSA key is damaged' };
    const bytes = modulus.value[0] === 0 ? modulus.value.length - 1 : modulus.value.length;
    if (bytes * 8 < 2048) return { error: 'RSA keys need at least 2048 bits; ssh-ed25519 is better still' };
  }
  const fingerprint = fingerprintOf(blob);
  return { type, normalized: `${type} ${data}`, fingerprint, comment: parts.slice(2).join(' ') };
}

/** The SHA256 fingerprint of a key blob, as `ssh-keygen -l` prints it. */
export function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}
