import {
  RDP_CLIPBOARD,
  type RdpClipboard,
  type TunnelDefinition,
  type TunnelFields,
  type TunnelType,
} from '@gatehouse/contracts';
import { sshKeyPair } from '../../gateway/gateway-keys.js';
import type { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AgentsRepository } from '../agents/agents.repository.js';
import type { Principal } from '../auth/principal.js';
import type { GroupsRepository } from '../groups/groups.repository.js';
import type { AccessPolicy } from '../policy/access-policy.js';
import type { UsersAdminRepository } from '../users/users-admin.repository.js';
import type { TunnelsRepository, TunnelWithMembers } from './tunnels.repository.js';

type Fields = z.infer<typeof TunnelFields>;
type Type = z.infer<typeof TunnelType>;
const DEFAULT_PORTS: Partial<Record<Type, number>> = { ssh: 22, rdp: 3389 };

function toDefinition(row: TunnelWithMembers): z.infer<typeof TunnelDefinition> {
  return {
    id: row.id,
    type: row.type as Type,
    name: row.name,
    host: { id: row.agentId, hostname: row.hostname },
    port: row.port,
    users: row.users,
    group: row.groupName,
    agents: row.agents,
    ssh_login: row.sshLogin,
    ssh_auth: (row.sshAuth as 'key' | 'password' | null) ?? null,
    public_key: row.publicKey,
    allow_port_forwarding: row.allowPortForwarding,
    ...(row.type === 'rdp' ? { unfilmed_rdp: row.unfilmedRdp === 'allow' ? 'allow' : 'refuse' } : {}),
    ...(row.type === 'rdp' ? { rdp_clipboard: rdpClipboard(row.rdpClipboard) } : {}),
    created_at: row.createdAt.toISOString(),
  };
}

/** A stored rdp_clipboard as the API answers it (anything unknown reads as off: never wider than stored). */
export function rdpClipboard(value: string): RdpClipboard {
  return (RDP_CLIPBOARD as readonly string[]).includes(value) ? (value as RdpClipboard) : 'off';
}

function byType(rows: TunnelWithMembers[]) {
  const lists = { ssh: [], rdp: [], generic: [], agent: [] } as Record<Type, z.infer<typeof TunnelDefinition>[]>;
  for (const row of rows) lists[row.type as Type].push(toDefinition(row));
  return lists;
}

/** Tunnel definitions: which port of which host, for whom, and the credential Gatehouse logs in with. */
export class TunnelsService {
  constructor(
    private readonly tunnels: TunnelsRepository,
    private readonly agents: AgentsRepository,
    private readonly groups: GroupsRepository,
    private readonly users: UsersAdminRepository,
    private readonly box: SecretBox,
    private readonly policy: AccessPolicy,
  ) {}

  /** Every definition, by type. */
  async listAll() {
    return byType(await this.tunnels.listAll());
  }

  /**
   * The definitions the caller may use (the policy's answer); holders of list-all-tunnel-definitions
   * see every definition listed, which admits them to nothing more.
   */
  async listFor(principal: Principal) {
    if (principal.permissions.has('list-all-tunnel-definitions')) return this.listAll();
    return byType(await this.policy.definitionsFor(principal));
  }

  private async require(id: string): Promise<TunnelWithMembers> {
    const row = await this.tunnels.find(id);
    if (!row) throw new HttpError(404, 'There is no tunnel definition with that id.');
    return row;
  }

  /** Checks the fields for the type and works out what to store, sealing any credential. */
  private async prepare(type: Type, fields: Partial<Fields>, current?: TunnelWithMembers) {
    const hostId = fields.host_id ?? current?.agentId;
    if (!hostId || !(await this.agents.find(hostId))) throw new HttpError(404, 'There is no agent with that host_id.');
    const port = fields.port ?? current?.port ?? DEFAULT_PORTS[type];
    if (!port)
      throw new HttpError(400, `port is required for ${type} tunnels`, [`port is required for ${type} tunnels`]);
    if (fields.group && !(await this.groups.exists(fields.group)))
      throw new HttpError(404, `There is no group named ${fields.group}.`);
    if (fields.unfilmed_rdp !== undefined && type !== 'rdp')
      throw new HttpError(400, 'unfilmed_rdp applies to rdp definitions only', [
        'unfilmed_rdp applies to rdp definitions only',
      ]);
    if (fields.rdp_clipboard !== undefined && type !== 'rdp')
      throw new HttpError(400, 'rdp_clipboard applies to rdp definitions only', [
        'rdp_clipboard applies to rdp definitions only',
      ]);
    const values = {
      agentId: hostId,
      port,
      ...(fields.name !== undefined ? { name: fields.name } : {}),
      ...(fields.group !== undefined ? { groupName: fields.group } : {}),
      ...(fields.allow_port_forwarding !== undefined ? { allowPortForwarding: fields.allow_port_forwarding } : {}),
      ...(fields.unfilmed_rdp !== undefined ? { unfilmedRdp: fields.unfilmed_rdp } : {}),
      ...(fields.rdp_clipboard !== undefined ? { rdpClipboard: fields.rdp_clipboard } : {}),
    };
    if (type !== 'ssh') return values;
    const login = fields.ssh_login ?? current?.sshLogin;
    if (!login)
      throw new HttpError(400, 'ssh_login is required for ssh tunnels', ['ssh_login is required for ssh tunnels']);
    const auth = fields.ssh_auth ?? (current?.sshAuth as 'key' | 'password' | null) ?? 'key';
    const credential: { sshAuth: string; credentialSealed?: string; publicKey?: string | null } = { sshAuth: auth };
    if (auth === 'password') {
      if (fields.password)
        Object.assign(credential, { credentialSealed: this.box.seal(fields.password), publicKey: null });
      else if (current?.sshAuth !== 'password')
        throw new HttpError(400, 'password is required when ssh_auth is password', [
          'password is required when ssh_auth is password',
        ]);
    } else if (current?.sshAuth !== 'key') {
      const pair = sshKeyPair(`gatehouse-${login}`);
      Object.assign(credential, { credentialSealed: this.box.seal(pair.private), publicKey: pair.public.trim() });
    }
    return { ...values, sshLogin: login, ...credential };
  }

  /** Creates a definition for a host the caller reaches already (the policy's guard). */
  async create(principal: Principal, type: Type, fields: Fields) {
    const values = await this.prepare(type, fields);
    await this.policy.grants.mayAdmitToHosts(principal, [values.agentId]);
    const id = await this.tunnels.create({ ...values, type, name: fields.name });
    return { definition: toDefinition(await this.require(id)), message: 'Tunnel created' };
  }

  /** Changes a definition, when the caller reaches its host (and the new one, if it moves). */
  async update(principal: Principal, id: string, fields: Partial<Fields>) {
    const current = await this.require(id);
    const values = await this.prepare(current.type as Type, fields, current);
    await this.policy.grants.mayAdmitToHosts(principal, [current.agentId, values.agentId]);
    await this.tunnels.update(id, values);
    return { definition: toDefinition(await this.require(id)), message: 'Tunnel updated' };
  }

  /** Deletes a definition. */
  async delete(id: string) {
    if (!(await this.tunnels.delete(id))) throw new HttpError(404, 'There is no tunnel definition with that id.');
    return { message: 'Tunnel deleted' };
  }

  /** Admits exactly these users directly, when the caller reaches the definition's host. */
  async setUsers(principal: Principal, id: string, userIds: string[]) {
    const current = await this.require(id);
    await this.policy.grants.mayAdmitToHosts(principal, [current.agentId]);
    const unique = [...new Set(userIds)];
    const known = await this.users.existingIds(unique);
    const missing = unique.filter((u) => !known.includes(u));
    if (missing.length > 0) throw new HttpError(404, `No user has the id ${missing.join(', ')}.`);
    await this.tunnels.setUsers(id, unique);
    return { message: 'Tunnel updated' };
  }

  /** Lets exactly these agents open the tunnel, when the caller reaches the definition's host. */
  async setAgents(principal: Principal, id: string, agentIds: string[]) {
    const current = await this.require(id);
    await this.policy.grants.mayAdmitToHosts(principal, [current.agentId]);
    const unique = [...new Set(agentIds)];
    const known = await this.groups.existingAgents(unique);
    const missing = unique.filter((a) => !known.includes(a));
    if (missing.length > 0) throw new HttpError(404, `No agent has the id ${missing.join(', ')}.`);
    await this.tunnels.setAgents(id, unique);
    return { message: 'Tunnel updated' };
  }
}
