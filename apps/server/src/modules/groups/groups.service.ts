import type { Group } from '@gatehouse/contracts';
import type { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { Principal } from '../auth/principal.js';
import type { AccessPolicy } from '../policy/access-policy.js';
import type { UsersAdminRepository } from '../users/users-admin.repository.js';
import { findCycle } from './cycle.js';
import type { GroupRow, GroupsRepository } from './groups.repository.js';

/** Spec §8's duplicate text for groups, two spaces included. */
export const GROUP_EXISTS = 'That group name is already in use.  Please use a different name.';
/** Spec §8's text when every user named is in the group already. */
export const USER_INCLUDED = 'The user you are trying to include has already been included.';

function toGroup(row: GroupRow): z.infer<typeof Group> {
  return {
    name: row.name,
    users: row.users,
    agents: row.agents,
    groups: row.groups,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * Groups, their members and their nesting. Every change of membership asks the policy's grant
 * guard first: nobody gives (themselves included) a host they do not reach already.
 */
export class GroupsService {
  constructor(
    private readonly groups: GroupsRepository,
    private readonly users: UsersAdminRepository,
    private readonly policy: AccessPolicy,
  ) {}

  private async require(name: string) {
    if (!(await this.groups.exists(name))) throw new HttpError(404, `There is no group named ${name}.`);
  }

  /** Every group, by name without regard to case. */
  async list() {
    return { groups: (await this.groups.list()).map(toGroup) };
  }

  /** Creates a group; names are unique without regard to case. */
  async create(name: string) {
    try {
      await this.groups.create(name);
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, GROUP_EXISTS);
      throw error;
    }
    const row = await this.groups.find(name);
    if (!row) throw new Error('created group not found');
    return { group: toGroup(row), message: 'Group created' };
  }

  /** Deletes a group, when the caller could have granted what it gives. */
  async delete(principal: Principal, name: string) {
    await this.require(name);
    await this.policy.grants.mayGrantGroup(principal, name);
    if (!(await this.groups.delete(name))) throw new HttpError(404, `There is no group named ${name}.`);
    return { message: 'Group deleted' };
  }

  /** Adds users; 409 when all of them are members already. */
  async addUsers(principal: Principal, name: string, emails: string[]) {
    await this.require(name);
    await this.policy.grants.mayGrantGroup(principal, name);
    const found = await this.users.findByEmails([...new Set(emails)]);
    const missing = emails.filter((e) => !found.some((f) => f.email === e));
    if (missing.length > 0) throw new HttpError(404, `No user has the email ${missing.join(', ')}.`);
    const added = await this.groups.addUsers(
      name,
      found.map((f) => f.id),
    );
    if (added === 0) throw new HttpError(409, USER_INCLUDED);
    return { message: 'User added to group' };
  }

  /** Removes a user from a group. */
  async removeUser(principal: Principal, name: string, email: string) {
    await this.require(name);
    await this.policy.grants.mayGrantGroup(principal, name);
    const [user] = await this.users.findByEmails([email]);
    if (!user || !(await this.groups.removeUser(name, user.id))) {
      throw new HttpError(404, `${email} is not a member of ${name}.`);
    }
    return { message: 'User removed from group' };
  }

  /** Adds agents by id; unknown ids are named in a 404. */
  async addAgents(principal: Principal, name: string, ids: string[]) {
    await this.require(name);
    const unique = [...new Set(ids)];
    const existing = await this.groups.existingAgents(unique);
    const missing = unique.filter((id) => !existing.includes(id));
    if (missing.length > 0) throw new HttpError(404, `No agent has the id ${missing.join(', ')}.`);
    await this.policy.grants.mayGrantAgents(principal, name, unique);
    const added = await this.groups.addAgents(name, unique);
    if (added === 0) throw new HttpError(409, 'The agents you are trying to add are in the group already.');
    return { message: 'Host added to group' };
  }

  /** Removes an agent from a group. */
  async removeAgent(principal: Principal, name: string, id: string) {
    await this.require(name);
    await this.policy.grants.mayGrantAgents(principal, name, [id]);
    if (!(await this.groups.removeAgent(name, id))) throw new HttpError(404, `That agent is not in ${name}.`);
    return { message: 'Host removed from group' };
  }

  /** Nests groups; a nesting that would close a cycle is refused and the cycle named. */
  async addChildren(principal: Principal, name: string, children: string[]) {
    await this.require(name);
    for (const child of children) await this.require(child);
    // The children's members become members of this group (and of its ancestors).
    await this.policy.grants.mayGrantGroup(principal, name);
    const result = await this.groups.addChildren(name, [...new Set(children)], findCycle);
    if (result.cycle) {
      throw new HttpError(
        409,
        `Nesting refused: it would make a cycle ${result.cycle.join(' → ')}. A group cannot contain itself.`,
      );
    }
    if (result.added === 0) throw new HttpError(409, 'Those groups are nested here already.');
    return { message: 'Group updated' };
  }

  /** Takes a child group out. */
  async removeChild(principal: Principal, name: string, child: string) {
    await this.require(name);
    await this.policy.grants.mayGrantGroup(principal, name);
    if (!(await this.groups.removeChild(name, child))) throw new HttpError(404, `${child} is not nested in ${name}.`);
    return { message: 'Group updated' };
  }
}
