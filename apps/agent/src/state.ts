import fs from 'node:fs';
import path from 'node:path';
import type { HostConfig } from '@gatehouse/contracts';

/** The agent's own identity, received once at registration. */
export interface Identity {
  id: string;
  credential: string;
  server: string;
}

/** The state folder: identity.json (owner-only) and config.json (the config last applied). */
export class StateDir {
  constructor(readonly dir: string) {}

  private file(name: string): string {
    return path.join(this.dir, name);
  }

  /** The stored identity, if the agent registered before. */
  identity(): Identity | undefined {
    try {
      const value = JSON.parse(fs.readFileSync(this.file('identity.json'), 'utf8')) as Partial<Identity>;
      return value.id && value.credential && value.server ? (value as Identity) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Stores the identity, readable by the owner only, written aside then renamed. */
  saveIdentity(identity: Identity): void {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.writeAtomic('identity.json', JSON.stringify(identity, null, 2), 0o600);
  }

  /** Records the config the agent applies. */
  saveConfig(config: HostConfig): void {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.writeAtomic(
      'config.json',
      JSON.stringify({ ...config, applied_at: new Date().toISOString() }, null, 2),
      0o644,
    );
  }

  /** The config applied last, if any (used until the server sends one). */
  config(): HostConfig | undefined {
    try {
      return JSON.parse(fs.readFileSync(this.file('config.json'), 'utf8')) as HostConfig;
    } catch {
      return undefined;
    }
  }

  private writeAtomic(name: string, text: string, mode: number): void {
    const target = this.file(name);
    fs.writeFileSync(`${target}.tmp`, text, { mode });
    fs.renameSync(`${target}.tmp`, target);
  }
}
