import type { AccessEntry } from '@gatehouse/contracts';
import { type MockContext, type NamedHandler, route } from '../http';
import type { Answer, MockState } from '../types';
import { ancestors } from './reach';

/** The mock gateway's port (the mock system status names the same listener). */
const MOCK_SSH_PORT = 2222;

/** What My access answers in the mock: the caller's definitions (direct or through groups) and commands. */
export function myAccessOf(state: MockState, email: string, base: string): Answer<'myAccess'> {
  const user = state.users.find((u) => u.email === email);
  const groups = ancestors(
    state,
    state.groups.filter((g) => g.users.includes(email)).map((g) => g.name),
  );
  const host = new URL(base).hostname;
  const server = new URL(base).origin;
  const roles = state.roles.filter((r) => user?.roles.includes(r.name));
  const entries = state.tunnels.flatMap((tunnel): AccessEntry[] => {
    if (tunnel.type === 'agent') return [];
    const direct = user !== undefined && tunnel.users.includes(user.id);
    const via = tunnel.group !== null && groups.has(tunnel.group) ? [tunnel.group] : [];
    if (!direct && via.length === 0) return [];
    const agent = state.agents.find((a) => a.id === tunnel.host_id);
    const hostname = agent?.hostname ?? 'deleted-host';
    const login = `${email}@${hostname}`;
    const commands: AccessEntry['commands'] =
      tunnel.type === 'ssh'
        ? {
            ssh: `ssh -p ${MOCK_SSH_PORT} ${login}@${host}`,
            scp: `scp -P ${MOCK_SSH_PORT} FILE ${login}@${host}:`,
            sftp: `sftp -P ${MOCK_SSH_PORT} ${login}@${host}`,
            ssh_config: `Host gatehouse-${hostname}\n    HostName ${host}\n    Port ${MOCK_SSH_PORT}\n    User ${login}\n`,
            ssh_alias: `gatehouse-${hostname}`,
          }
        : {
            tunnel: `npx gatehouse tunnel '${tunnel.name}' --server ${server} --email ${email}`,
            ...(tunnel.type === 'rdp' ? { desktop_path: `/desktop/${tunnel.id}` } : {}),
          };
    return [
      {
        definition: { id: tunnel.id, name: tunnel.name, type: tunnel.type },
        host: { id: tunnel.host_id, hostname, state: agent?.connected ? 'connected' : 'disconnected' },
        port: tunnel.port,
        ssh_login: tunnel.ssh_login,
        uses:
          tunnel.type === 'ssh'
            ? ['shell', 'exec', 'sftp', ...(tunnel.allow_port_forwarding ? (['forward'] as const) : [])]
            : [tunnel.type],
        via: { direct, groups: via },
        commands,
      },
    ];
  });
  return {
    email,
    may_open: roles.some((r) => r.name === 'admin' || r.permissions.includes('create-tunnel')),
    gateway: { host, port: MOCK_SSH_PORT },
    server_url: server,
    entries: entries.sort((a, b) => a.host.hostname.localeCompare(b.host.hostname)),
    contacts: state.users
      .filter((u) => u.roles.includes('admin') && u.email !== email)
      .map((u) => u.email)
      .slice(0, 5),
  };
}

/** GET /api/me/access in the mock. */
export function myAccessHandlers(state: MockState, context: MockContext): NamedHandler[] {
  return [route(context, 'myAccess', ({ caller }) => myAccessOf(state, caller ?? '', context.base))];
}
