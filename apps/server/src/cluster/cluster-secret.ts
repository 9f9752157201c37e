import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../lib/secret-box.js';
import type { SettingsRepository } from '../modules/settings/settings.repository.js';

interface StoredSecret {
  relay_secret_sealed: string;
}

/**
 * The secret that signs relay requests between server instances (ADR 0007). Given by
 * GATEHOUSE_CLUSTER_SECRET, or made once and kept sealed in the database (the first instance
 * to start stores it; every other one reads the same), like the gateway's host key: instances
 * already share the database and the key that opens what is sealed in it, so a cluster needs no
 * further secret to be handed around, and whoever could read this one could read the host key too.
 */
export class ClusterSecret {
  private cached: Promise<Buffer> | undefined;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly box: SecretBox,
    private readonly configured?: string,
  ) {}

  /** The key for HMAC-SHA256 over relay requests. */
  key(): Promise<Buffer> {
    this.cached ??= this.load().catch((error: unknown) => {
      this.cached = undefined; // a database hiccup is not remembered
      throw error;
    });
    return this.cached;
  }

  private async load(): Promise<Buffer> {
    if (this.configured) return Buffer.from(this.configured, 'utf8');
    let stored = (await this.settings.get('cluster-secret')) as StoredSecret | undefined;
    if (!stored) {
      await this.settings.putIfAbsent('cluster-secret', {
        relay_secret_sealed: this.box.seal(randomBytes(32).toString('base64')),
      } satisfies StoredSecret);
      // Another instance may have stored its secret first: everyone uses what the database holds.
      stored = (await this.settings.get('cluster-secret')) as StoredSecret;
    }
    return Buffer.from(this.box.open(stored.relay_secret_sealed), 'utf8');
  }
}
