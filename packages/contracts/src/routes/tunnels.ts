import { z } from 'zod';
import { MessageBody, defineRoute } from '../route.js';
import { DisplayName, PathName, Timestamp } from './common.js';

/** Kinds of tunnel definition (spec §3). */
export const TUNNEL_TYPES = ['ssh', 'rdp', 'generic', 'agent'] as const;
export const TunnelType = z.enum(TUNNEL_TYPES, { error: 'The type must be ssh, rdp, generic or agent' });

const Port = z
  .number({ error: 'port must be a number' })
  .int('port must be a whole number')
  .min(1, 'port must be from 1 to 65535')
  .max(65535, 'port must be from 1 to 65535');

/**
 * What an rdp definition does with a session its host's agent cannot film (issue 18): 'refuse'
 * closes it (the default), 'allow' lets it go on, marked not filmed in Sessions and the audit.
 */
export const UnfilmedRdp = z.enum(['refuse', 'allow'], { error: 'unfilmed_rdp must be refuse or allow' });
export type UnfilmedRdp = z.infer<typeof UnfilmedRdp>;

/**
 * The browser desktop's clipboard for an rdp definition (issue 18), enforced at the gateway:
 * 'both' (default), 'to-desktop' (paste into the remote desktop only), 'from-desktop' (copy out
 * of it only) or 'off'.
 */
export const RDP_CLIPBOARD = ['both', 'to-desktop', 'from-desktop', 'off'] as const;
export const RdpClipboard = z.enum(RDP_CLIPBOARD, {
  error: 'rdp_clipboard must be both, to-desktop, from-desktop or off',
});
export type RdpClipboard = z.infer<typeof RdpClipboard>;

/** A tunnel definition as the API answers it; credentials are never answered. */
export const TunnelDefinition = z
  .object({
    id: z.string(),
    type: TunnelType,
    name: z.string(),
    host: z.object({ id: z.string(), hostname: z.string() }),
    port: z.number().int(),
    users: z.array(z.string()).describe('Ids of users admitted directly'),
    group: z.string().nullable().describe('Members of this group (and its child groups) are admitted'),
    agents: z
      .array(z.object({ id: z.string(), hostname: z.string() }))
      .describe('Agents that may open an agent tunnel'),
    ssh_login: z.string().nullable().describe('ssh: the login on the host'),
    ssh_auth: z.enum(['key', 'password']).nullable().describe('ssh: how Gatehouse logs in'),
    public_key: z.string().nullable().describe('ssh with key: the public half to put in authorized_keys'),
    allow_port_forwarding: z.boolean(),
    unfilmed_rdp: UnfilmedRdp.optional().describe(
      'rdp: a session the agent cannot film (capture failed or unsupported, recording off for the host, no capture status within 30 s) is refused, or allowed and marked not filmed',
    ),
    rdp_clipboard: RdpClipboard.optional().describe(
      'rdp: the browser desktop’s clipboard, enforced at the gateway: both (default), to-desktop, from-desktop or off',
    ),
    created_at: Timestamp,
  })
  .meta({ id: 'TunnelDefinition' });

/** The four lists the spec's tunnels collection has. */
export const TunnelLists = z.object({
  ssh: z.array(TunnelDefinition),
  rdp: z.array(TunnelDefinition),
  generic: z.array(TunnelDefinition),
  agent: z.array(TunnelDefinition),
});

/** Fields a definition is created or changed with. */
export const TunnelFields = z.strictObject({
  name: DisplayName.min(1, 'name is required'),
  host_id: z.uuid({ error: 'host_id must be an agent id' }),
  port: Port.optional().describe('Defaults: ssh 22, rdp 3389; required for generic and agent'),
  group: PathName('Group').nullable().optional(),
  ssh_login: z
    .string()
    .trim()
    .min(1, 'ssh_login is required')
    .max(32)
    .regex(/^[a-z_][a-z0-9_.-]*\$?$/i, 'ssh_login must be a valid Unix login')
    .optional(),
  ssh_auth: z.enum(['key', 'password']).optional().describe('ssh: key (Gatehouse generates a key pair) or password'),
  password: z.string().min(1).max(1024).optional().describe('ssh with password: write-only, stored encrypted'),
  allow_port_forwarding: z.boolean().optional(),
  unfilmed_rdp: UnfilmedRdp.optional().describe('rdp: refuse (default) or allow sessions the agent cannot film'),
  rdp_clipboard: RdpClipboard.optional().describe(
    'rdp: the browser desktop’s clipboard: both (default), to-desktop, from-desktop or off',
  ),
});

const idParam = z.object({ id: z.uuid({ error: 'Not a tunnel definition id' }) });
const lists = z.object({ ...TunnelLists.shape });

export const listTunnels = defineRoute({
  id: 'tunnel.list',
  method: 'GET',
  path: '/api/tunneldefinition',
  tag: 'tunnels',
  summary:
    'Tunnel definitions the caller may use (directly or through nested groups); every one with list-all-tunnel-definitions.',
  access: { kind: 'signed-in' },
  response: lists,
});

export const listAllTunnels = defineRoute({
  id: 'tunnel.list-all',
  method: 'GET',
  path: '/api/tunneldefinition/all',
  tag: 'tunnels',
  summary: 'Every tunnel definition, by type.',
  access: { kind: 'permissions', anyOf: ['list-all-tunnel-definitions'] },
  response: lists,
});

export const createTunnel = defineRoute({
  id: 'tunnel.create',
  method: 'POST',
  path: '/api/tunneldefinition/{type}',
  tag: 'tunnels',
  summary:
    'Create a definition. For ssh with key, Gatehouse generates an Ed25519 key pair and answers the public half.',
  access: { kind: 'permissions', anyOf: ['create-tunnel-definition'] },
  params: z.object({ type: TunnelType }),
  body: TunnelFields,
  status: 201,
  response: z.object({ definition: TunnelDefinition, message: z.string() }),
});

export const updateTunnel = defineRoute({
  id: 'tunnel.update',
  method: 'PUT',
  path: '/api/tunneldefinition/{id}',
  tag: 'tunnels',
  summary: 'Change a definition; fields not sent keep their value. Switching ssh_auth to key makes a new key pair.',
  access: { kind: 'permissions', anyOf: ['modify-tunnel-definition'] },
  params: idParam,
  body: TunnelFields.partial(),
  response: z.object({ definition: TunnelDefinition, message: z.string() }),
});

export const deleteTunnel = defineRoute({
  id: 'tunnel.delete',
  method: 'DELETE',
  path: '/api/tunneldefinition/{id}',
  tag: 'tunnels',
  summary: 'Delete a definition.',
  access: { kind: 'permissions', anyOf: ['modify-tunnel-definition'] },
  params: idParam,
  response: MessageBody,
});

export const setTunnelUsers = defineRoute({
  id: 'tunnel.users.set',
  method: 'PUT',
  path: '/api/tunneldefinition/{id}/users',
  tag: 'tunnels',
  summary: 'The users admitted directly: exactly these ids.',
  access: { kind: 'permissions', anyOf: ['modify-tunnel-definition'] },
  params: idParam,
  body: z.object({ users: z.array(z.uuid({ error: 'users must be user ids' })).max(10_000) }),
  response: MessageBody,
});

export const setTunnelAgents = defineRoute({
  id: 'tunnel.agents.set',
  method: 'PUT',
  path: '/api/tunneldefinition/{id}/agents',
  tag: 'tunnels',
  summary: 'The agents that may open this (agent) tunnel: exactly these ids. The body may be the list itself.',
  access: { kind: 'permissions', anyOf: ['modify-tunnel-definition'] },
  params: idParam,
  body: z.union([
    z.array(z.uuid({ error: 'agents must be agent ids' })).max(10_000),
    z.object({ agents: z.array(z.uuid({ error: 'agents must be agent ids' })).max(10_000) }),
  ]),
  response: MessageBody,
});
