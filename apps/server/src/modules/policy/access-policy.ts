import { ADMIN_ROLE } from '@gatehouse/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AgentsRepository } from '../agents/agents.repository.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import { type Principal, holdsAdminRole } from '../auth/principal.js';
import type { GroupsRepository } from '../groups/groups.repository.js';
import type { TunnelsRepository, TunnelWithMembers } from '../tunnels/tunnels.repository.js';
import type { UsersRepository } from '../users/users.repository.js';
import { agentFromCredential, type CredentialAgent } from './agent-credential.js';
import { GrantGuards } from './grant-guards.js';
import { type DecisionContext, type Use, definitionTypeFor } from './uses.js';

/** Someone asking to use a host: a signed-in principal, or a user the gateway authenticated. */
export type Person = Pick<Principal, 'userId' | 'email'> | { id: string; email: string };

/** The hosts a person reaches: 'all' only for holders of the admin role. */
export type Reach = { all: true } | { all: false; agentIds: ReadonlySet<string> };

/** The definition kinds a person (not an agent) opens. */
export type AccessKind = 'ssh' | 'rdp' | 'generic';

/** What a person may open, as accessOf() answers it. */
export interface PersonalAccess {
  /** A role of theirs holds create-tunnel: without it, no definition admits them to anything. */
  mayOpen: boolean;
  definitions: {
    definition: TunnelWithMembers & { type: AccessKind };
    /** The definition names them. */
    direct: boolean;
    /** Their groups (nesting included) the definition admits. */
    groups: string[];
    uses: Use[];
  }[];
}

/** The uses a definition admits, as admit() would grant them. */
function usesOf(definition: TunnelWithMembers & { type: AccessKind }): Use[] {
  if (definition.type !== 'ssh') return [definition.type];
  return definition.allowPortForwarding ? ['shell', 'exec', 'sftp', 'forward'] : ['shell', 'exec', 'sftp'];
}

/** What the policy reads. */
export interface PolicyDeps {
  groups: GroupsRepository;
  tunnels: TunnelsRepository;
  agents: AgentsRepository;
  users: UsersRepository;
  audit: AuditRepository;
  log: FastifyBaseLogger;
}

/** The permission that lets a user open sessions and tunnels at all (spec: create-tunnel). */
export const OPEN_PERMISSION = 'create-tunnel';

function idOf(person: Person): string {
  return 'userId' in person ? person.userId : person.id;
}

/**
 * The one answer to every access question (modelled on Teleport's AccessChecker): which definition
 * admits a person to a host for a use, which agent may speak for a host, which hosts and recordings
 * a person reaches, and (grant-guards.ts) who may grant what. No other place decides.
 */
export class AccessPolicy {
  /** Who may grant what: roles, group membership, tunnel definitions, other accounts. */
  readonly grants: GrantGuards;

  constructor(private readonly deps: PolicyDeps) {
    this.grants = new GrantGuards({ ...deps, reachOfUser: (userId) => this.reachOfUser(userId) });
  }

  /** True when this definition admits the user: named directly, or through a group (nesting included). */
  private admits(definition: TunnelWithMembers, userId: string, groups: readonly string[]): boolean {
    return (
      definition.users.includes(userId) || (definition.groupName !== null && groups.includes(definition.groupName))
    );
  }

  /**
   * The definition that admits this person to this host (a host name, or one definition) for this use,
   * or undefined; 'forward' needs a definition that allows port forwarding. Denials are audited.
   */
  async admit(
    person: Person,
    definitionOrHost: TunnelWithMembers | string,
    use: Use,
    context: DecisionContext = {},
  ): Promise<TunnelWithMembers | undefined> {
    const userId = idOf(person);
    const type = definitionTypeFor(use);
    const candidates =
      typeof definitionOrHost === 'string' ? await this.forHost(definitionOrHost, type) : [definitionOrHost];
    const [groups, mayOpen] = await Promise.all([this.deps.groups.memberships(userId), this.mayOpen(userId)]);
    const admitted = candidates.find(
      (d) => d.type === type && this.admits(d, userId, groups) && (use !== 'forward' || d.allowPortForwarding),
    );
    if (admitted && mayOpen) return admitted;
    const target = typeof definitionOrHost === 'string' ? definitionOrHost : definitionOrHost.name;
    const why =
      candidates.length === 0
        ? `no ${type} tunnel definition exists for ${target}`
        : admitted
          ? `no role of the user holds ${OPEN_PERMISSION}`
          : use === 'forward' && candidates.some((d) => d.type === type && this.admits(d, userId, groups))
            ? 'no definition that admits the user allows port forwarding'
            : 'no tunnel definition admits the user, directly or through a group';
    await this.deny({ actorId: userId, actor: person.email, what: `tunnel.${use}`, target, why }, context);
    return undefined;
  }

  /**
   * Opening anything through the gateway needs create-tunnel from a role (the built-in user role
   * has it unless an administrator took it away): read now, so a role change applies at once.
   */
  private async mayOpen(userId: string): Promise<boolean> {
    const roles = await this.deps.users.rolesOf(userId);
    return roles.some((r) => r.name === ADMIN_ROLE || r.permissions.includes(OPEN_PERMISSION));
  }

  /**
   * A person's own access (GET /api/me/access): every ssh, rdp and generic definition that admits
   * them, with how (named directly, or which of their groups), the uses each allows, and whether
   * they may open anything at all (admit() decides the same way when they connect).
   */
  async accessOf(person: Person): Promise<PersonalAccess> {
    const userId = idOf(person);
    const [groups, mayOpen] = await Promise.all([this.deps.groups.memberships(userId), this.mayOpen(userId)]);
    const definitions = (await this.deps.tunnels.listReachable(userId, groups)).filter(
      (d): d is TunnelWithMembers & { type: AccessKind } => d.type !== 'agent',
    );
    return {
      mayOpen,
      definitions: definitions.map((definition) => ({
        definition,
        direct: definition.users.includes(userId),
        groups: definition.groupName !== null && groups.includes(definition.groupName) ? [definition.groupName] : [],
        uses: usesOf(definition),
      })),
    };
  }

  /** True when this agent is listed on this agent tunnel definition; denials are audited. */
  async admitAgent(
    agent: { id: string; hostname: string },
    definition: TunnelWithMembers,
    context: DecisionContext = {},
  ): Promise<boolean> {
    if (definition.type === 'agent' && definition.agents.some((a) => a.id === agent.id)) return true;
    await this.deny(
      {
        actor: `agent:${agent.hostname}`,
        what: 'tunnel.agent',
        target: definition.name,
        why: 'the agent is not listed',
      },
      context,
    );
    return false;
  }

  /** May this agent speak for its host: the enrolled agent whose credential this is, or undefined. */
  agentFromCredential(id: unknown, credential: unknown): Promise<CredentialAgent | undefined> {
    return agentFromCredential(this.deps.agents, id, credential);
  }

  /** The hosts (agent ids) this principal reaches: only the admin role reaches all of them. */
  async reach(principal: Principal): Promise<Reach> {
    if (holdsAdminRole(principal)) return { all: true };
    return { all: false, agentIds: await this.reachOfUser(principal.userId) };
  }

  /** The agents a user (ignoring any admin role) reaches: through their groups' hosts and definitions. */
  async reachOfUser(userId: string): Promise<Set<string>> {
    const groups = await this.deps.groups.memberships(userId);
    const ids = new Set((await this.deps.groups.agentsOf(groups)).map((a) => a.id));
    for (const d of await this.deps.tunnels.listReachable(userId, groups)) ids.add(d.agentId);
    return ids;
  }

  /** The reach as a list of agent ids, undefined meaning every host (for list filters). */
  async reachableAgents(principal: Principal): Promise<string[] | undefined> {
    const reach = await this.reach(principal);
    return reach.all ? undefined : [...reach.agentIds];
  }

  /** True when the principal reaches this host (admins reach every host). */
  async reaches(principal: Principal, agentId: string | null): Promise<boolean> {
    const reach = await this.reach(principal);
    return reach.all || (agentId !== null && reach.agentIds.has(agentId));
  }

  /**
   * May this principal watch, replay, download, verify or terminate this recording: they need
   * list-recording and to reach its host. Denials are audited when a context is given (sockets).
   */
  async mayWatch(
    principal: Principal,
    recording: { id: string; agentId: string | null },
    context?: DecisionContext,
  ): Promise<boolean> {
    if (principal.permissions.has('list-recording') && (await this.reaches(principal, recording.agentId))) return true;
    if (context)
      await this.deny(
        {
          actorId: principal.userId,
          actor: principal.email,
          what: 'recording.watch',
          target: recording.id,
          why: principal.permissions.has('list-recording') ? 'the host is out of reach' : 'list-recording is missing',
        },
        context,
      );
    return false;
  }

  /**
   * May this principal place or lift a legal hold on this recording: manage-legal-hold and the
   * right to watch it (list-recording and its host in reach), as the session list shows it.
   */
  async mayHold(principal: Principal, recording: { id: string; agentId: string | null }): Promise<boolean> {
    return principal.permissions.has('manage-legal-hold') && this.mayWatch(principal, recording);
  }

  /** The definitions that admit this principal (what they may use, whatever they may list). */
  async definitionsFor(principal: Principal): Promise<TunnelWithMembers[]> {
    const groups = await this.deps.groups.memberships(principal.userId);
    return this.deps.tunnels.listReachable(principal.userId, groups);
  }

  private async forHost(hostname: string, type: 'ssh' | 'rdp' | 'generic'): Promise<TunnelWithMembers[]> {
    if (type === 'ssh') return this.deps.tunnels.sshForHost(hostname);
    const lower = hostname.toLowerCase();
    return (await this.deps.tunnels.listAll()).filter((d) => d.type === type && d.hostname.toLowerCase() === lower);
  }

  /** Writes the denial to the audit trail; a failing write is logged, never thrown at the caller. */
  async deny(
    entry: { actorId?: string | null; actor: string; what: string; target: string; why: string },
    context: DecisionContext = {},
  ): Promise<void> {
    await this.deps.audit
      .append({
        actorId: entry.actorId ?? null,
        actor: entry.actor,
        action: 'policy.deny',
        target: entry.target,
        outcome: 'denied',
        source: context.source ?? null,
        detail: { what: entry.what, why: entry.why },
      })
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'the audit trail refused a policy denial'));
  }
}
