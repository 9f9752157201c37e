import { flag, found, list, num, required, text } from '../body';
import { ed25519PublicKey } from '../data/infrastructure';
import { MockError, type MockContext, type NamedHandler, route } from '../http';
import { Prng } from '../prng';
import type { Answer, MockState, MockTunnel } from '../types';
import { agentIds } from './hosts';

type Definition = Answer<'listAllTunnels'>['ssh'][number];
const TYPES = ['ssh', 'rdp', 'generic', 'agent'] as const;
const DEFAULT_PORTS: Partial<Record<MockTunnel['type'], number>> = { ssh: 22, rdp: 3389 };

function definition(state: MockState, tunnel: MockTunnel): Definition {
  const host = state.agents.find((agent) => agent.id === tunnel.host_id);
  const { host_id: _host, agents, ...fields } = tunnel;
  return {
    ...fields,
    host: { id: tunnel.host_id, hostname: host?.hostname ?? 'deleted host' },
    users: [...tunnel.users],
    agents: agents.flatMap((id) => {
      const agent = state.agents.find((a) => a.id === id);
      return agent ? [{ id, hostname: agent.hostname }] : [];
    }),
  };
}

function lists(state: MockState): Answer<'listAllTunnels'> {
  const of = (type: MockTunnel['type']) =>
    state.tunnels
      .filter((t) => t.type === type)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((t) => definition(state, t));
  return { ssh: of('ssh'), rdp: of('rdp'), generic: of('generic'), agent: of('agent') };
}

function tunnelAt(state: MockState, id: string | undefined): MockTunnel {
  return found(
    state.tunnels.find((tunnel) => tunnel.id === id),
    'The tunnel definition',
  );
}

/** The fields sent over the kept ones, with the server's checks (host, port, group, ssh login and credential). */
function applyFields(state: MockState, tunnel: MockTunnel, body: unknown, creating: boolean): void {
  const hostId = text(body, 'host_id') ?? tunnel.host_id;
  found(
    state.agents.find((agent) => agent.id === hostId),
    'The host (host_id)',
  );
  const port = num(body, 'port') ?? (creating ? DEFAULT_PORTS[tunnel.type] : tunnel.port);
  if (!port) throw new MockError(400, `port is required for ${tunnel.type} tunnels`);
  const group = text(body, 'group');
  if (group && !state.groups.some((g) => g.name === group))
    throw new MockError(404, `There is no group named ${group}.`);
  Object.assign(tunnel, {
    host_id: hostId,
    port,
    name: text(body, 'name') ?? tunnel.name,
    group: group === undefined ? (creating ? null : tunnel.group) : group || null,
    allow_port_forwarding: flag(body, 'allow_port_forwarding') ?? tunnel.allow_port_forwarding,
  });
  if (tunnel.type !== 'ssh') return;
  const login = text(body, 'ssh_login') ?? tunnel.ssh_login;
  if (!login) throw new MockError(400, 'ssh_login is required for ssh tunnels');
  const auth = (text(body, 'ssh_auth') as 'key' | 'password' | undefined) ?? tunnel.ssh_auth ?? 'key';
  if (auth === 'password' && !text(body, 'password') && tunnel.ssh_auth !== 'password')
    throw new MockError(400, 'password is required when ssh_auth is password');
  const newKey = auth === 'key' && tunnel.ssh_auth !== 'key';
  tunnel.public_key =
    auth === 'password'
      ? null
      : newKey
        ? ed25519PublicKey(new Prng(Date.now() >>> 0), `gatehouse-${login}`)
        : tunnel.public_key;
  tunnel.ssh_login = login;
  tunnel.ssh_auth = auth;
}

/** Tunnel definitions of the four types: create, change, delete, who may use them. */
export function tunnelHandlers(state: MockState, context: MockContext): NamedHandler[] {
  return [
    route(context, 'listTunnels', () => lists(state)),
    route(context, 'listAllTunnels', () => lists(state)),
    route(
      context,
      'createTunnel',
      ({ params, body }) => {
        const type = TYPES.find((t) => t === params.type);
        if (!type) throw new MockError(400, 'The type must be ssh, rdp, generic or agent');
        const tunnel: MockTunnel = {
          id: new Prng(Date.now() >>> 0).uuid(),
          type,
          name: required(body, 'name', 'name is required'),
          host_id: '',
          port: 0,
          users: [],
          group: null,
          agents: [],
          ssh_login: null,
          ssh_auth: null,
          public_key: null,
          allow_port_forwarding: false,
          created_at: new Date().toISOString(),
        };
        applyFields(state, tunnel, body, true);
        state.tunnels.push(tunnel);
        return { definition: definition(state, tunnel), message: 'Tunnel created' };
      },
      201,
    ),
    route(context, 'updateTunnel', ({ params, body }) => {
      const tunnel = tunnelAt(state, params.id);
      applyFields(state, tunnel, body, false);
      return { definition: definition(state, tunnel), message: 'Tunnel updated' };
    }),
    route(context, 'deleteTunnel', ({ params }) => {
      const tunnel = tunnelAt(state, params.id);
      state.tunnels = state.tunnels.filter((t) => t !== tunnel);
      return { message: 'Tunnel deleted' };
    }),
    route(context, 'setTunnelUsers', ({ params, body }) => {
      const tunnel = tunnelAt(state, params.id);
      tunnel.users = list(body, 'users').map(
        (id) =>
          found(
            state.users.find((u) => u.id === id),
            'A user',
          ).id,
      );
      return { message: 'Tunnel updated' };
    }),
    route(context, 'setTunnelAgents', ({ params, body }) => {
      const tunnel = tunnelAt(state, params.id);
      tunnel.agents = agentIds(state, body, 'agents');
      return { message: 'Tunnel updated' };
    }),
  ];
}
