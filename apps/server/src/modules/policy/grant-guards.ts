import { ADMIN_ROLE, effectivePermissions } from '@gatehouse/contracts';
import { HttpError } from '../../http/errors.js';
import type { AgentsRepository } from '../agents/agents.repository.js';
import { type Principal, holdsAdminRole } from '../auth/principal.js';
import type { GroupsRepository } from '../groups/groups.repository.js';
import type { TunnelsRepository } from '../tunnels/tunnels.repository.js';
import type { UsersRepository } from '../users/users.repository.js';
import { hostsGivenByGroup } from './group-reach.js';

/** What the grant guards read. */
export interface GrantDeps {
  groups: GroupsRepository;
  tunnels: TunnelsRepository;
  agents: AgentsRepository;
  users: UsersRepository;
  /** The hosts a user reaches, ignoring any admin role (the policy's answer). */
  reachOfUser: (userId: string) => Promise<Set<string>>;
}

/** Names a list for a message: "a, b and 3 more". */
function names(list: readonly string[]): string {
  const shown = list.slice(0, 5).join(', ');
  return list.length > 5 ? `${shown} and ${list.length - 5} more` : shown;
}

/**
 * Nobody grants what they do not hold: giving a role or adding permissions needs the caller to
 * hold each permission concerned (administrators hold all), so modify-role cannot escalate.
 */
export function assertMayGrantPermissions(principal: Principal, permissions: readonly string[]): void {
  const missing = permissions.filter((p) => !principal.permissions.has(p as never));
  if (missing.length > 0)
    throw new HttpError(403, `You cannot grant permissions you do not hold yourself: ${missing.join(', ')}.`);
}

/**
 * The grant guards: through no call can anyone give (themselves included) a permission or a host
 * they do not hold, or act on an account that holds more than they do. Each refusal is a 403 that
 * says why. Holders of the admin role pass every guard.
 */
export class GrantGuards {
  constructor(private readonly deps: GrantDeps) {}

  /** Giving or taking a role: every permission of it, and the admin role only by an admin-role holder. */
  mayGrantRole(principal: Principal, role: { name: string; permissions: readonly string[] }): void {
    if (role.name === ADMIN_ROLE && !holdsAdminRole(principal))
      throw new HttpError(403, 'Only a holder of the admin role can give or take the admin role.');
    assertMayGrantPermissions(principal, role.permissions);
  }

  /** Throws a 403 naming the hosts of `hosts` (agent id → name) that the principal does not reach. */
  private async requireReach(
    principal: Principal,
    hosts: Map<string, string>,
    why: (missing: string) => string,
  ): Promise<void> {
    if (holdsAdminRole(principal) || hosts.size === 0) return;
    const reach = await this.deps.reachOfUser(principal.userId);
    const missing = [...hosts].filter(([id]) => !reach.has(id)).map(([, hostname]) => hostname);
    if (missing.length > 0) throw new HttpError(403, why(names(missing.sort())));
  }

  /**
   * Adding or removing a member (user or child group) of a group, or deleting it: the principal
   * must already reach every host the group gives (its agents, its ancestors' agents, and the
   * hosts of definitions naming any of them).
   */
  async mayGrantGroup(principal: Principal, group: string): Promise<void> {
    if (holdsAdminRole(principal)) return;
    const hosts = await hostsGivenByGroup(this.deps.groups, this.deps.tunnels, group);
    await this.requireReach(
      principal,
      hosts,
      (missing) =>
        `${group} gives access to hosts you do not reach yourself (${missing}): only someone who reaches them can change its members or delete it.`,
    );
  }

  /** Adding agents to a group, or taking them out: the principal must reach each of them. */
  async mayGrantAgents(principal: Principal, group: string, agentIds: readonly string[]): Promise<void> {
    if (holdsAdminRole(principal)) return;
    await this.requireReach(
      principal,
      await this.hostNames(agentIds),
      (missing) => `You can only add to or remove from ${group} hosts you reach yourself; you do not reach ${missing}.`,
    );
  }

  /**
   * Creating or changing a tunnel definition, or setting its users, group or agents: the principal
   * must already reach its host (each host, when a change moves the definition).
   */
  async mayAdmitToHosts(principal: Principal, agentIds: readonly string[]): Promise<void> {
    if (holdsAdminRole(principal)) return;
    await this.requireReach(
      principal,
      await this.hostNames(agentIds),
      (missing) =>
        `You can only create or change tunnel definitions for hosts you reach yourself; you do not reach ${missing}.`,
    );
  }

  /**
   * Deleting an account or sending it a password reset: an administrator's only by an
   * administrator; anyone else's only when it holds no permission and no host the principal lacks.
   */
  async mayActOnAccount(principal: Principal, target: { id: string; email: string }): Promise<void> {
    if (holdsAdminRole(principal)) return;
    const roles = await this.deps.users.rolesOf(target.id);
    if (roles.some((r) => r.name === ADMIN_ROLE))
      throw new HttpError(403, `${target.email} is an administrator: only an administrator can do this.`);
    const missing = effectivePermissions(roles).filter((p) => !principal.permissions.has(p));
    if (missing.length > 0)
      throw new HttpError(
        403,
        `${target.email} holds permissions you do not hold (${names(missing)}): ask an administrator.`,
      );
    const hosts = await this.hostNames([...(await this.deps.reachOfUser(target.id))]);
    await this.requireReach(
      principal,
      hosts,
      (missing) => `${target.email} reaches hosts you do not reach yourself (${missing}): ask an administrator.`,
    );
  }

  private async hostNames(agentIds: readonly string[]): Promise<Map<string, string>> {
    const wanted = new Set(agentIds);
    const hosts = new Map<string, string>();
    if (wanted.size === 0) return hosts;
    for (const a of await this.deps.agents.list()) if (wanted.has(a.id)) hosts.set(a.id, a.hostname);
    // An id no agent has yet still needs reach (the service answers 404 for it afterwards).
    for (const id of wanted) if (!hosts.has(id)) hosts.set(id, id);
    return hosts;
  }
}
