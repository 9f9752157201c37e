import { REGISTRATION_KEY_LIMITS } from '@gatehouse/contracts';
import { fieldsOf, found, list, required } from '../body';
import { MockError, type MockContext, type NamedHandler, route } from '../http';
import { Prng, base64 } from '../prng';
import type { HostConfig, MockAgent, MockState } from '../types';

const LOG_LEVELS = ['INFO', 'WARNING', 'ERROR', 'DEBUG'] as const;

function agentAt(state: MockState, id: string | undefined): MockAgent {
  return found(
    state.agents.find((agent) => agent.id === id),
    'The host',
  );
}

/** The fields sent over the kept configuration, checked as the contract's HostConfig checks them. */
function nextConfig(kept: HostConfig, body: unknown): HostConfig {
  const sent = typeof body === 'object' && body !== null ? (body as Partial<Record<keyof HostConfig, unknown>>) : {};
  const next = { ...kept };
  const problems: string[] = [];
  if (sent.loglevel !== undefined) {
    const level = LOG_LEVELS.find((l) => l === sent.loglevel);
    if (level) next.loglevel = level;
    else problems.push('loglevel must be INFO, WARNING, ERROR or DEBUG');
  }
  if (typeof sent.recording_enabled === 'boolean') next.recording_enabled = sent.recording_enabled;
  if (sent.recording_fps !== undefined) {
    const fps = sent.recording_fps;
    if (typeof fps === 'number' && Number.isInteger(fps) && fps >= 1 && fps <= 30) next.recording_fps = fps;
    else problems.push('recording_fps must be from 1 to 30');
  }
  if (sent.recording_scale !== undefined) {
    const scale = sent.recording_scale;
    if (typeof scale === 'number' && scale > 0 && scale <= 1) next.recording_scale = scale;
    else problems.push('recording_scale must be above 0 and at most 1');
  }
  if (sent.recording_bitrate !== undefined) {
    const rate = sent.recording_bitrate;
    const kbps = typeof rate === 'string' && /^\d{1,6}k$/.test(rate) ? Number.parseInt(rate, 10) : 0;
    if (kbps >= 100 && kbps <= 50_000 && typeof rate === 'string') next.recording_bitrate = rate;
    else problems.push('recording_bitrate must be between 100k and 50000k');
  }
  if (sent.whitelist !== undefined) {
    const ports = Array.isArray(sent.whitelist) ? sent.whitelist : [];
    if (ports.every((p) => typeof p === 'number' && Number.isInteger(p) && p >= 1 && p <= 65535))
      next.whitelist = [...new Set(ports as number[])].sort((a, b) => a - b);
    else problems.push('whitelist ports must be from 1 to 65535');
  }
  if (problems.length > 0) throw new MockError(400, problems.join('. '), { errors: problems });
  return next;
}

/** A whole number from 1 to max, the default when absent, else null. */
function limit(value: unknown, fallback: number, max: number): number | null {
  if (value === undefined) return fallback;
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max ? value : null;
}

/**
 * A new key's limits as the contract checks them (default one agent within 24 hours), or a 400
 * in the server's words; permissions are refused, as registration keys carry none (ADR 0006).
 */
function keyLimitsIn(body: unknown): { hours: number; uses: number } {
  const sent = fieldsOf(body);
  const { defaultHours, maxHours, defaultUses, maxUses } = REGISTRATION_KEY_LIMITS;
  const hours = limit(sent.expires_in_hours, defaultHours, maxHours);
  const uses = limit(sent.uses, defaultUses, maxUses);
  const problems = [
    ...(hours === null ? [`expires_in_hours must be from 1 to ${maxHours} (a year)`] : []),
    ...(uses === null ? [`uses must be from 1 to ${maxUses}`] : []),
    ...(sent.permissions !== undefined && list(body, 'permissions').length > 0
      ? [
          'Registration keys carry no permissions: what an agent may do is set per host (its whitelist) and per tunnel definition. Leave permissions out.',
        ]
      : []),
  ];
  if (hours === null || uses === null || problems.length > 0)
    throw new MockError(400, problems.join('. '), { errors: problems });
  return { hours, uses };
}

/** Hosts (agents), their configuration, and the registration keys that enrol them. */
export function hostHandlers(state: MockState, context: MockContext): NamedHandler[] {
  return [
    route(context, 'listAgents', () => ({
      agents: [...state.agents].sort(
        (a, b) => a.hostname.localeCompare(b.hostname) || Number(b.connected) - Number(a.connected),
      ),
    })),
    route(context, 'getAgentConfig', ({ params }) => agentAt(state, params.id).config),
    route(context, 'saveAgentConfig', ({ params, body }) => {
      const agent = agentAt(state, params.id);
      agent.config = nextConfig(agent.config, body);
      return { ...agent.config, message: 'Configuration saved.', applied: agent.connected };
    }),
    route(context, 'deleteAgent', ({ params }) => {
      const agent = agentAt(state, params.id);
      state.agents = state.agents.filter((a) => a !== agent);
      state.tunnels = state.tunnels.filter((tunnel) => tunnel.host_id !== agent.id);
      for (const tunnel of state.tunnels) tunnel.agents = tunnel.agents.filter((id) => id !== agent.id);
      for (const group of state.groups) group.agents = group.agents.filter((id) => id !== agent.id);
      return { message: 'Host Deleted' };
    }),
    route(context, 'listApiKeys', () => ({ keys: state.apiKeys })),
    route(
      context,
      'createApiKey',
      ({ body, caller }) => {
        const description = required(body, 'description', 'Description is required');
        const { hours, uses } = keyLimitsIn(body);
        const rng = new Prng(Date.now() >>> 0);
        const created = Date.now();
        const key = {
          uuid: rng.uuid(),
          description,
          created: new Date(created).toISOString(),
          created_by: caller,
          last_used_at: null,
          expires_at: new Date(created + hours * 3_600_000).toISOString(),
          uses,
          uses_left: uses,
        };
        state.apiKeys.unshift(key);
        const secret = `ghk_${base64(rng.bytes(32)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
        return { ...key, key: secret, message: 'Registration key created. Copy it now: it is not shown again.' };
      },
      201,
    ),
    route(context, 'deleteApiKey', ({ params }) => {
      const before = state.apiKeys.length;
      state.apiKeys = state.apiKeys.filter((key) => key.uuid !== params.uuid);
      if (state.apiKeys.length === before) throw new MockError(404, 'There is no registration key with that id.');
      return { message: 'Registration key deleted' };
    }),
  ];
}

/** Ids named in a body that are known agents, or a 404 naming the first unknown one. */
export function agentIds(state: MockState, body: unknown, key: string): string[] {
  return (Array.isArray(body) ? body.filter((id): id is string => typeof id === 'string') : list(body, key)).map(
    (id) => agentAt(state, id).id,
  );
}
