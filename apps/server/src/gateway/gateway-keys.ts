import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ssh2 from 'ssh2';
import type { SecretBox } from '../lib/secret-box.js';
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

/**
 * The gateway's SSH host key and the Ed25519 key that signs recording manifests. Both are made on
 * first use and kept sealed in the database, so every instance presents the same host key and
 * signs with the same key. The public signing key is also written to the data folder for the
 * verification command.
 */
export class GatewayKeys {
  private cached: Promise<{ hostKey: string; signingKey: string; signingPublicKey: string }> | undefined;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly box: SecretBox,
    private readonly dataDir: string,
  ) {}

  /** The keys, created if this database has none yet. */
  keys() {
    this.cached ??= this.load();
    return this.cached;
  }

  private async load() {
    let stored = (await this.settings.get('gateway-keys')) as StoredKeys | undefined;
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
    fs.mkdirSync(this.dataDir, { recursive: true });
    fs.writeFileSync(path.join(this.dataDir, 'recording-signing.pub'), stored.signing_public_key);
    return {
      hostKey: this.box.open(stored.ssh_host_key_sealed),
      signingKey: this.box.open(stored.signing_key_sealed),
      signingPublicKey: stored.signing_public_key,
    };
  }
}
