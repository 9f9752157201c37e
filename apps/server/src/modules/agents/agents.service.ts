import { randomBytes } from 'node:crypto';
import { type Agent, HostConfig, HostName, defaultHostConfig } from '@gatehouse/contracts';
import type { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import type { AgentHub } from '../../realtime/agent-hub.js';
import type { ApiKeysRepository } from '../apikeys/apikeys.repository.js';
import type { LoginGuardRepository } from '../auth/login-guard.repository.js';
import { hashToken } from '../auth/tokens.js';
import type { AgentsRepository } from './agents.repository.js';

type AgentRow = NonNullable<Awaited<ReturnType<AgentsRepository['find']>>>;

/** The stored config, or the defaults of spec §9 for the host's OS. */
export function configOf(row: { os: number; config: unknown }): HostConfig {
  const parsed = HostConfig.safeParse(row.config);
  return parsed.success ? parsed.data : defaultHostConfig(row.os);
}

function toAgent(row: AgentRow): z.infer<typeof Agent> {
  return {
    id: row.id,
    hostname: row.hostname,
    os: row.os === 2 || row.os === 3 ? row.os : 1,
    version: row.version,
    connected: row.state === 'connected',
    state: row.state,
    last_seen: row.lastSeenAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    config: configOf(row),
    capture: {
      filming: Number(row.filming ?? 0),
      last_error: row.captureError,
      last_error_at: row.captureErrorAt ? new Date(row.captureErrorAt).toISOString() : null,
    },
  };
}

/** Enrolment, listing, configuration and removal of agents. */
export class AgentsService {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly keys: ApiKeysRepository,
    private readonly guard: LoginGuardRepository,
    private readonly hub: AgentHub,
    private readonly ratePerMinute: number,
    private readonly license: { agentLimit(): Promise<number | undefined> },
  ) {}

  /** Every agent. */
  async list() {
    return { agents: (await this.agents.list()).map(toAgent) };
  }

  private async require(id: string): Promise<AgentRow> {
    const row = await this.agents.find(id);
    if (!row) throw new HttpError(404, 'There is no agent with that id.');
    return row;
  }

  /** A host's config. */
  async config(id: string) {
    return configOf(await this.require(id));
  }

  /** Merges and validates a config change, stores it, and pushes it to the agent when connected. */
  async saveConfig(id: string, patch: Partial<HostConfig>) {
    const row = await this.require(id);
    const next = HostConfig.parse({ ...configOf(row), ...patch });
    await this.agents.setConfig(id, next);
    const applied = await this.hub.pushConfig(id, next);
    return { ...next, message: 'Configuration saved.', applied };
  }

  /** Disconnects the agent and revokes its credential by deleting it. */
  async delete(id: string) {
    const row = await this.require(id);
    this.hub.disconnect(id, 'deleted in the console');
    await this.agents.delete(id);
    this.hub.emit('changed', id);
    return { message: 'Host Deleted', hostname: row.hostname };
  }

  /** Enrols an agent with a registration key; the credential is answered once and stored hashed. */
  async register(input: { key: string; hostname: string; os: 1 | 2 | 3; version: string }, source: string) {
    const attempts = await this.guard.hit(`register:addr:${source}`, 60);
    if (attempts.count > this.ratePerMinute)
      throw new HttpError(429, 'Too many registrations from your address. Try again in a minute.');
    // The name is fixed here, once (the hello cannot change it): DNS-like, lowercased.
    const hostname = HostName.safeParse(input.hostname);
    if (!hostname.success) throw new HttpError(400, hostname.error.issues[0]?.message ?? 'hostname is not valid');
    const keyHash = hashToken(input.key);
    // One use is taken atomically before anything else; expired, used-up and unknown keys take none.
    const key = await this.keys.consume(keyHash);
    if (!key) {
      const known = await this.keys.findByHash(keyHash);
      if (!known) {
        throw new HttpError(
          401,
          'The registration key is not valid: it is wrong or was deleted. Generate a new one in the console (Keys).',
        );
      }
      throw new HttpError(
        401,
        known.usesLeft <= 0
          ? `The registration key "${known.description}" has enrolled all the agents it may (${known.uses}). Generate a new key in the console (Keys).`
          : `The registration key "${known.description}" expired at ${known.expiresAt.toISOString()}. Generate a new key in the console (Keys).`,
      );
    }
    const limit = await this.license.agentLimit();
    if (limit !== undefined && (await this.agents.counts()).total >= limit) {
      await this.keys.giveBack(key.uuid);
      throw new HttpError(
        403,
        `The licence allows ${limit} agents and all are enrolled. Delete a host you no longer use, or install a licence for more.`,
      );
    }
    const credential = `gha_${randomBytes(32).toString('base64url')}`;
    const id = await this.agents.create({
      hostname: hostname.data,
      os: input.os,
      version: input.version,
      credentialHash: hashToken(credential),
      config: defaultHostConfig(input.os),
      registeredWith: key.uuid,
    });
    this.hub.emit('changed', id);
    return { id, credential };
  }
}
