import { z } from 'zod';
import { MessageBody, defineRoute } from '../route.js';
import { Timestamp } from './common.js';

/** Operating systems agents report (spec §3): Linux 1, Windows 2, MacOS 3. */
export const AgentOs = z.union([z.literal(1), z.literal(2), z.literal(3)]);

/** Bitrate as the server keeps it: kbps with a k suffix, 100k to 50000k. */
export const Bitrate = z
  .string({ error: 'recording_bitrate must be text such as 2000k' })
  .regex(/^\d{1,6}k$/, 'recording_bitrate must be kbps with a k suffix, such as 2000k')
  .refine((v) => {
    const kbps = Number.parseInt(v, 10);
    return kbps >= 100 && kbps <= 50_000;
  }, 'recording_bitrate must be between 100k and 50000k');

/** Host configuration (spec §3 Host config, §9 defaults). */
export const HostConfig = z
  .object({
    loglevel: z.enum(['INFO', 'WARNING', 'ERROR', 'DEBUG'], {
      error: 'loglevel must be INFO, WARNING, ERROR or DEBUG',
    }),
    recording_enabled: z.boolean({ error: 'recording_enabled must be true or false' }),
    recording_fps: z
      .number({ error: 'recording_fps must be a number' })
      .int('recording_fps must be a whole number')
      .min(1, 'recording_fps must be from 1 to 30')
      .max(30, 'recording_fps must be from 1 to 30'),
    recording_scale: z
      .number({ error: 'recording_scale must be a number' })
      .gt(0, 'recording_scale must be above 0 and at most 1')
      .max(1, 'recording_scale must be above 0 and at most 1'),
    recording_bitrate: Bitrate,
    whitelist: z
      .array(
        z
          .number({ error: 'whitelist ports must be numbers' })
          .int('whitelist ports must be whole numbers')
          .min(1, 'whitelist ports must be from 1 to 65535')
          .max(65535, 'whitelist ports must be from 1 to 65535'),
        { error: 'whitelist must be a list of ports' },
      )
      .max(200, 'whitelist holds at most 200 ports')
      .transform((ports) => [...new Set(ports)].sort((a, b) => a - b)),
  })
  .meta({ id: 'HostConfig' });
export type HostConfig = z.infer<typeof HostConfig>;

/** The defaults of spec §9: [3389] is whitelisted on Windows hosts only. */
export function defaultHostConfig(os: number): HostConfig {
  return {
    loglevel: 'ERROR',
    recording_enabled: false,
    recording_fps: 5,
    recording_scale: 1,
    recording_bitrate: '2000k',
    whitelist: os === 2 ? [3389] : [],
  };
}

const HOST_NAME_RULE =
  'hostname must be a DNS-like name: letters, digits and hyphens in labels of 1 to 63 characters, joined by dots, ' +
  'at most 253 characters in all, no hyphen at the start or end of a label (start the agent with --hostname to choose one)';

/**
 * A host's name, fixed when its agent enrols (issue 14): DNS-like, stored lowercased. Names reach
 * file names, headers, terminals and the console, so nothing else gets in.
 */
export const HostName = z
  .string({ error: 'hostname is required' })
  .trim()
  .min(1, 'hostname is required')
  .max(253, HOST_NAME_RULE)
  .regex(
    /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/,
    HOST_NAME_RULE,
  )
  .transform((name) => name.toLowerCase());

/**
 * Where a host's agent stands: connected (to a live server instance, heard from in the last 15
 * seconds); reconnecting (it was connected when its server instance stopped or was lost, and a
 * minute has not passed since a server was back to take it); disconnected otherwise.
 */
export const AgentState = z.enum(['connected', 'reconnecting', 'disconnected']).meta({ id: 'AgentState' });
export type AgentState = z.infer<typeof AgentState>;

/** Whether a host's RDP sessions are being filmed now, and its last capture failure (issue 18). */
export const AgentCapture = z
  .object({
    filming: z.number().int().describe('RDP sessions through tunnels whose video the agent is capturing now'),
    last_error: z.string().nullable().describe('The last capture failure, in the agent’s words'),
    last_error_at: Timestamp.nullable(),
  })
  .meta({ id: 'AgentCapture' });

/** An enrolled host. */
export const Agent = z
  .object({
    id: z.string(),
    hostname: z.string(),
    os: AgentOs,
    version: z.string().nullable(),
    /** True exactly when state is 'connected'. */
    connected: z.boolean(),
    state: AgentState,
    last_seen: Timestamp.nullable(),
    created_at: Timestamp,
    config: HostConfig,
    capture: AgentCapture.optional(),
  })
  .meta({ id: 'Agent' });

const idParam = z.object({ id: z.uuid({ error: 'Not an agent id' }) });

export const listAgents = defineRoute({
  id: 'agent.list',
  method: 'GET',
  path: '/api/agent',
  tag: 'agents',
  summary:
    'Enrolled hosts, by hostname, then connected first. Connected means heard from in the last 15 seconds through a live server instance; reconnecting means its agent was connected when its server instance stopped and is expected back.',
  access: { kind: 'permissions', anyOf: ['list-host'] },
  response: z.object({ agents: z.array(Agent) }),
});

export const getAgentConfig = defineRoute({
  id: 'agent.config.get',
  method: 'GET',
  path: '/api/agent/{id}/config',
  tag: 'agents',
  summary: 'A host’s configuration.',
  access: { kind: 'permissions', anyOf: ['list-host'] },
  params: idParam,
  response: HostConfig,
});

export const saveAgentConfig = defineRoute({
  id: 'agent.config.save',
  method: 'POST',
  path: '/api/agent/{id}/config',
  tag: 'agents',
  summary: 'Change a host’s configuration; a connected agent applies it at once. Fields not sent keep their value.',
  access: { kind: 'permissions', anyOf: ['modify-agent-config'] },
  params: idParam,
  body: HostConfig.partial().strict(),
  response: HostConfig.extend({
    message: z.string(),
    applied: z.boolean().describe('The agent was connected and got it'),
  }),
});

export const deleteAgent = defineRoute({
  id: 'agent.delete',
  method: 'DELETE',
  path: '/api/agent/{id}',
  tag: 'agents',
  summary: 'Disconnect a host and revoke its credential; it cannot come back without a new registration.',
  access: { kind: 'permissions', anyOf: ['modify-agent-config'] },
  params: idParam,
  response: MessageBody,
});

export const registerAgent = defineRoute({
  id: 'agent.register',
  method: 'POST',
  path: '/api/agent/register',
  tag: 'agents',
  summary: 'An agent enrols with a registration key and receives its own credential, once.',
  access: { kind: 'public' },
  body: z.strictObject({
    key: z.string({ error: 'The registration key is required' }).min(1, 'The registration key is required').max(200),
    hostname: HostName,
    os: AgentOs,
    version: z.string().max(50),
  }),
  status: 201,
  response: z.object({ id: z.string(), credential: z.string() }),
  errors: { 401: 'The registration key is wrong or was deleted' },
});
