import type { License } from '@gatehouse/contracts';
import type { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import type { AgentsRepository } from '../agents/agents.repository.js';
import type { SettingsRepository } from '../settings/settings.repository.js';
import { LicenseError, readLicense } from './license-token.js';

const KEY = 'license';

/**
 * The installed licence: stored as its signed text in the database (so every instance sees the
 * same), checked again whenever it is read, and enforced when agents enrol.
 */
export class LicenseService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly agents: AgentsRepository,
    private readonly allowDevelopment: boolean,
  ) {}

  private async installed() {
    const stored = (await this.settings.get(KEY)) as { text?: string } | undefined;
    if (!stored?.text) return undefined;
    try {
      return readLicense(stored.text, this.allowDevelopment);
    } catch {
      // A licence that no longer verifies (a development licence on a production start) counts as none.
      return undefined;
    }
  }

  /** The licence as the console shows it. */
  async get(): Promise<z.infer<typeof License>> {
    const [license, counts] = await Promise.all([this.installed(), this.agents.counts()]);
    if (!license)
      return {
        status: 'missing',
        customer: null,
        expires: null,
        issued_at: null,
        license_id: null,
        max_agents: null,
        agents_used: counts.total,
        development: false,
      };
    const { claims, development } = license;
    return {
      status: Date.parse(claims.expires) < Date.now() ? 'expired' : 'valid',
      customer: claims.customer,
      expires: new Date(claims.expires).toISOString(),
      issued_at: new Date(claims.issued_at).toISOString(),
      license_id: claims.id,
      max_agents: claims.max_agents,
      agents_used: counts.total,
      development,
    };
  }

  /** Installs a licence after checking its signature and expiry. */
  async save(text: string) {
    let read;
    try {
      read = readLicense(text, this.allowDevelopment);
    } catch (error) {
      if (error instanceof LicenseError) throw new HttpError(400, error.message);
      throw error;
    }
    if (Date.parse(read.claims.expires) < Date.now()) {
      throw new HttpError(
        400,
        `This licence expired on ${new Date(read.claims.expires).toISOString().slice(0, 10)}. Ask your vendor for a current one.`,
      );
    }
    await this.settings.put(KEY, { text: text.replace(/\s+/g, '') });
    return { message: 'License saved.', license: await this.get() };
  }

  /** The number of agents the licence allows, or undefined for no limit (no licence installed). */
  async agentLimit(): Promise<number | undefined> {
    return (await this.installed())?.claims.max_agents;
  }
}
