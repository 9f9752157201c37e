// Before ssh2 loads anywhere: its packets' padding from a pool (ssh2-padding.ts).
import './ssh2-padding.js';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ssh2 from 'ssh2';
import type { SecretBox } from '../lib/secret-box.js';
import {
  type ConfiguredRecordingKey,
  type KnownSigningKey,
  type SigningKeySource,
  type SigningKeysRepository,
  publicHalf,
} from '../recordings/signing-keys.js';
import type { SettingsRepository } from '../modules/settings/settings.repository.js';

/**
 * An Ed25519 key pair in OpenSSH format that ssh2 can read back. ssh2's generator was seen, rarely,
 * to write a private key its own parser refuses; such a pair is made again.
 */
export function sshKeyPair(comment?: string): { private: string; public: string } {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519', comment ? { comment } : {});
    if (!(ssh2.utils.parseKey(pair.private) instanceof Error)) return pair;
  }
  throw new Error('could not generate a readable SSH key pair');
}

interface StoredKeys {
  ssh_host_key_sealed: string;
  signing_key_sealed: string;
  signing_public_key: string;
}

/** The gateway's keys as loaded. */
export interface LoadedKeys {
  hostKey: string;
  /** PKCS#8 PEM of the key that signs recordings. */
  signingKey: string;
  signingPublicKey: string;
  /** `SHA256:…` of the signing key's public half. */
  signingFingerprint: string;
  /** Where the signing key is kept ('data-folder': sealed in the database with the data folder's key). */
  signingSource: SigningKeySource;
  /** Whoever holds the data folder holds the signing key too (the start warns). */
  signingKeyWithData: boolean;
}

/**
 * The gateway's SSH host key and the Ed25519 key that signs recordings. The host key, and the
 * signing key unless one is given (GATEHOUSE_RECORDING_KEY or GATEHOUSE_RECORDING_KEY_FILE), are
 * made on first use and kept sealed in the database, so every instance presents the same host key
 * and signs with the same key. Each signing key used is listed (recording_signing_keys) so that
 * recordings signed before a change of key still verify. The public signing key is also written
 * to the data folder, as a convenience: the verification command trusts only the key it is given.
 */
export class GatewayKeys {
  private cached: Promise<LoadedKeys> | undefined;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly box: SecretBox,
    private readonly dataDir: string,
    private readonly signingKeys?: SigningKeysRepository,
    private readonly configured?: ConfiguredRecordingKey,
  ) {}

  /** Every key this installation signed recordings with (the one signing now included). */
  async knownSigningKeys(): Promise<KnownSigningKey[]> {
    await this.keys();
    return (await this.signingKeys?.list()) ?? [];
  }

  /** The keys, created if this database has none yet. */
  keys() {
    this.cached ??= this.load();
    return this.cached;
  }

  private async load(): Promise<LoadedKeys> {
    let stored = (await this.settings.get('gateway-keys')) as StoredKeys | undefined;
    const existed = stored !== undefined;
    if (!stored) {
      const host = sshKeyPair();
      const signing = generateKeyPairSync('ed25519');
      stored = {
        ssh_host_key_sealed: this.box.seal(host.private),
        signing_key_sealed: this.box.seal(signing.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
        signing_public_key: signing.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      };
      await this.settings.putIfAbsent('gateway-keys', stored);
      // Another instance may have stored its keys first: everyone uses what the database holds.
      stored = (await this.settings.get('gateway-keys')) as StoredKeys;
    }
    // A sealed key made before may have signed recordings; one made just now signed nothing.
    const sealed = existed ? { publicKey: stored.signing_public_key } : undefined;
    const signingKey = this.configured?.pem ?? this.box.open(stored.signing_key_sealed);
    const { publicKey, fingerprint } = publicHalf(signingKey);
    const source = this.configured?.source ?? 'data-folder';
    // The sealed key signed this installation's recordings until a key was given: it stays listed.
    await this.signingKeys?.use({ publicKey, source }, sealed);
    fs.mkdirSync(this.dataDir, { recursive: true });
    fs.writeFileSync(path.join(this.dataDir, 'recording-signing.pub'), publicKey);
    return {
      hostKey: this.box.open(stored.ssh_host_key_sealed),
      signingKey,
      signingPublicKey: publicKey,
      signingFingerprint: fingerprint,
      signingSource: source,
      signingKeyWithData: !this.configured || this.configured.inDataFolder,
    };
  }
}
