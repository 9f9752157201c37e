import { ADMIN_ROLE, type AccessEntry, type MyAccess } from '@gatehouse/contracts';
import type { Principal } from '../auth/principal.js';
import type { AgentsRepository } from '../agents/agents.repository.js';
import type { AccessPolicy } from '../policy/access-policy.js';
import type { RolesAdminRepository } from '../roles/roles-admin.repository.js';
import { accessCommands } from './access-commands.js';
import type { GatewayAddress } from './gateway-address.js';

/** The permission whose holders (with the admin role's) are named as whom to ask for access. */
export const GRANTING_PERMISSION = 'modify-tunnel-definition';
/** At most this many contacts are named. */
export const MAX_CONTACTS = 5;

/** Where the caller connects, as the route works it out from the configuration and the request. */
export interface Endpoints {
  gateway: GatewayAddress;
  serverUrl: string;
}

/**
 * My access: the caller's own reach, exactly as the access policy decides it (AccessPolicy.accessOf),
 * with the host's state and copy-ready commands, and whom to ask when it is not enough. Never
 * anybody else's: the only person asked about is the principal.
 */
export class MyAccessService {
  constructor(
    private readonly policy: AccessPolicy,
    private readonly agents: AgentsRepository,
    private readonly roles: RolesAdminRepository,
  ) {}

  async of(principal: Principal, endpoints: Endpoints): Promise<MyAccess> {
    const [access, contacts] = await Promise.all([
      this.policy.accessOf(principal),
      this.roles.holdersOfRoleOrPermission(ADMIN_ROLE, GRANTING_PERMISSION, MAX_CONTACTS),
    ]);
    const states = new Map<string, AccessEntry['host']['state']>();
    for (const id of new Set(access.definitions.map((d) => d.definition.agentId)))
      states.set(id, (await this.agents.find(id))?.state ?? 'disconnected');
    const entries = access.definitions.map(({ definition, direct, groups, uses }): AccessEntry => ({
      definition: { id: definition.id, name: definition.name, type: definition.type },
      host: {
        id: definition.agentId,
        hostname: definition.hostname,
        state: states.get(definition.agentId) ?? 'disconnected',
      },
      port: definition.port,
      ssh_login: definition.type === 'ssh' ? definition.sshLogin : null,
      uses,
      via: { direct, groups },
      commands: accessCommands({
        kind: definition.type,
        email: principal.email,
        hostname: definition.hostname,
        definitionId: definition.id,
        definitionName: definition.name,
        ...endpoints,
      }),
    }));
    entries.sort(
      (a, b) =>
        a.host.hostname.localeCompare(b.host.hostname) ||
        a.definition.type.localeCompare(b.definition.type) ||
        a.definition.name.localeCompare(b.definition.name),
    );
    return {
      email: principal.email,
      may_open: access.mayOpen,
      gateway: endpoints.gateway,
      server_url: endpoints.serverUrl,
      entries,
      contacts: contacts.filter((email) => email !== principal.email),
    };
  }
}
