import { createPrivateKey, createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { recordingSigningKeys } from '../db/schema.js';
import { type SignedManifest, keyFingerprint } from './chain.js';

/** Where the private key that signs recordings is kept. */
export type SigningKeySource = 'environment' | 'file' | 'data-folder';

/** A signing key given to the server (GATEHOUSE_RECORDING_KEY or GATEHOUSE_RECORDING_KEY_FILE). */
export interface ConfiguredRecordingKey {
  /** PKCS#8 PEM of an Ed25519 private key. */
  pem: string;
  source: 'environment' | 'file';
  /** The file it was read from (source 'file'). */
  file?: string;
  /** The file lies inside the data folder: whoever holds the folder holds the key. */
  inDataFolder: boolean;
}

/** A key this installation signed recordings with. */
export interface KnownSigningKey {
  fingerprint: string;
  /** SPKI PEM. */
  publicKey: string;
  source: SigningKeySource;
  firstUsedAt: Date;
  /** When another key took its place; null while it signs. */
  retiredAt: Date | null;
}

const MAKE_ONE = 'make one with: openssl genpkey -algorithm ed25519 -out recording-key.pem';

/** An Ed25519 private key in PEM, or an error message naming `what` and how to fix it. */
function checkKey(pem: string, what: string): string {
  let key;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    const message = (error as Error).message;
    if (/passphrase/i.test(message) || /ENCRYPTED/.test(pem))
      throw new Error(`${what} is encrypted: give the key without a passphrase`, { cause: error });
    throw new Error(`${what} is not a PEM private key (PKCS#8, "BEGIN PRIVATE KEY"); ${MAKE_ONE}`, { cause: error });
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(`${what} is a ${key.asymmetricKeyType ?? 'secret'} key, not Ed25519; ${MAKE_ONE}`);
  return key.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/**
 * The recording signing key named by the environment, if any; throws (with a message for the
 * operator) when it cannot be read or is not an Ed25519 private key, so the server does not start.
 */
export function recordingKeyFromEnv(
  env: { GATEHOUSE_RECORDING_KEY?: string; GATEHOUSE_RECORDING_KEY_FILE?: string },
  dataDir: string,
): ConfiguredRecordingKey | undefined {
  const inline = env.GATEHOUSE_RECORDING_KEY?.trim();
  const file = env.GATEHOUSE_RECORDING_KEY_FILE?.trim();
  if (inline && file)
    throw new Error('GATEHOUSE_RECORDING_KEY and GATEHOUSE_RECORDING_KEY_FILE are both set: set only one of them');
  if (inline) {
    // Environments often carry a PEM on one line, its line breaks written as \n.
    const pem = inline.includes('\n') ? inline : inline.replace(/\\n/g, '\n');
    return { pem: checkKey(pem, 'GATEHOUSE_RECORDING_KEY'), source: 'environment', inDataFolder: false };
  }
  if (!file) return undefined;
  const resolved = path.resolve(file);
  let text: string;
  try {
    text = fs.readFileSync(resolved, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new Error(`GATEHOUSE_RECORDING_KEY_FILE: ${resolved} cannot be read (${code})`, { cause: error });
  }
  const relative = path.relative(path.resolve(dataDir), resolved);
  return {
    pem: checkKey(text, `GATEHOUSE_RECORDING_KEY_FILE (${resolved})`),
    source: 'file',
    file: resolved,
    inDataFolder: !relative.startsWith('..') && !path.isAbsolute(relative),
  };
}

/** The public half (SPKI PEM) and fingerprint of a private key. */
export function publicHalf(privatePem: string): { publicKey: string; fingerprint: string } {
  const publicKey = createPublicKey(privatePem).export({ type: 'spki', format: 'pem' }).toString();
  return { publicKey, fingerprint: keyFingerprint(publicKey) };
}

/** The list of keys this installation signed recordings with (migration 0018). */
export class SigningKeysRepository {
  constructor(private readonly db: Db) {}

  /**
   * Notes the key signing from now on; any other key still signing is retired now. `earlier` is
   * a key that signed before (the data folder's, when another takes its place): listed, retired.
   */
  async use(key: { publicKey: string; source: SigningKeySource }, earlier?: { publicKey: string }): Promise<void> {
    const fingerprint = keyFingerprint(key.publicKey);
    if (earlier && keyFingerprint(earlier.publicKey) !== fingerprint)
      await this.db
        .insert(recordingSigningKeys)
        .values({ fingerprint: keyFingerprint(earlier.publicKey), publicKey: earlier.publicKey, source: 'data-folder' })
        .onConflictDoNothing();
    await this.db
      .insert(recordingSigningKeys)
      .values({ fingerprint, publicKey: key.publicKey, source: key.source })
      .onConflictDoUpdate({ target: recordingSigningKeys.fingerprint, set: { retiredAt: null, source: key.source } });
    await this.db
      .update(recordingSigningKeys)
      .set({ retiredAt: sql`now()` })
      .where(sql`${ne(recordingSigningKeys.fingerprint, fingerprint)} AND ${isNull(recordingSigningKeys.retiredAt)}`);
  }

  /** Every key, oldest first. */
  async list(): Promise<KnownSigningKey[]> {
    const rows = await this.db.select().from(recordingSigningKeys).orderBy(asc(recordingSigningKeys.firstUsedAt));
    return rows.map((r) => ({ ...r, source: r.source as SigningKeySource }));
  }

  /** One key by fingerprint. */
  async find(fingerprint: string): Promise<KnownSigningKey | undefined> {
    const [row] = await this.db
      .select()
      .from(recordingSigningKeys)
      .where(eq(recordingSigningKeys.fingerprint, fingerprint));
    return row ? { ...row, source: row.source as SigningKeySource } : undefined;
  }
}

/**
 * Which of this installation's keys a manifest is signed with: the key to check its signature
 * with, or why it is not to be trusted (a key never used here, or one retired before the
 * recording ended, as a copy of an old key re-signing a recording would be).
 */
export function manifestKey(
  manifest: SignedManifest,
  known: KnownSigningKey[],
  endedOn: Date,
): { key: KnownSigningKey | undefined; problem: string | undefined } {
  let fingerprint: string;
  try {
    fingerprint = keyFingerprint(manifest.public_key);
  } catch {
    return { key: undefined, problem: 'the manifest’s public key is not a public key' };
  }
  const key = known.find((k) => k.fingerprint === fingerprint);
  if (!key) return { key, problem: `the manifest is signed with ${fingerprint}, a key this server never signed with` };
  // A second of slack: a recording ending as its server stops is signed just before the next start.
  if (key.retiredAt && endedOn.getTime() > key.retiredAt.getTime() + 1000)
    return {
      key,
      problem: `the manifest is signed with ${fingerprint}, a key retired on ${key.retiredAt.toISOString()}, before the recording ended`,
    };
  return { key, problem: undefined };
}
