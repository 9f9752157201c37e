import { ADMIN_ROLE, USER_ROLE, type UserListItem } from '@gatehouse/contracts';
import type { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { Principal } from '../auth/principal.js';
import type { GroupsRepository } from '../groups/groups.repository.js';
import type { RolesAdminRepository } from '../roles/roles-admin.repository.js';
import type { AccessPolicy } from '../policy/access-policy.js';
import type { UserListOptions, UserListRow, UsersAdminRepository } from './users-admin.repository.js';
import type { UsersRepository } from './users.repository.js';
import type { UsersService } from './users.service.js';
import type { TwoFactorRepository } from '../two-factor/two-factor.repository.js';

/** What a second-factor reset needs: the factors' queries and this instance's live connections. */
export interface SecondFactorReset {
  repo: TwoFactorRepository;
  /** Told each revoked token hash, so this instance's live connections close at once. */
  revoked: (tokenHash: string) => void;
}

/** Spec §8's duplicate text for users. */
export const USER_EXISTS = 'The user you are trying to add has already been added.';

/** A user row as the API answers it. */
export function toUserItem(
  row: UserListRow,
  twoFactor: { totp: boolean; passkeys: number } = { totp: false, passkeys: 0 },
): z.infer<typeof UserListItem> {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    roles: row.roles,
    groups: row.groups,
    created_at: row.createdAt.toISOString(),
    two_factor: twoFactor,
  };
}

/** User administration with its object-level rules. */
export class UsersAdminService {
  constructor(
    private readonly users: UsersRepository,
    private readonly admin: UsersAdminRepository,
    private readonly roles: RolesAdminRepository,
    private readonly groups: GroupsRepository,
    private readonly usersService: UsersService,
    private readonly policy: AccessPolicy,
    private readonly secondFactors: SecondFactorReset,
  ) {}

  private async withFactors(rows: UserListRow[]) {
    const factors = await this.secondFactors.repo.summaryOf(rows.map((r) => r.id));
    return rows.map((r) => toUserItem(r, factors.get(r.id)));
  }

  /** Everyone for holders of list-user; only themselves for anyone else. */
  async list(principal: Principal, options: Omit<UserListOptions, 'onlyUserId'>) {
    const onlyUserId = principal.permissions.has('list-user') ? undefined : principal.userId;
    const { rows, total } = await this.admin.list({ ...options, onlyUserId });
    return { users: await this.withFactors(rows), total };
  }

  /** The user with this email, or a 404 that names it. */
  async require(email: string) {
    const user = await this.users.findByEmail(email);
    if (!user) throw new HttpError(404, `No user has the email ${email}.`);
    return user;
  }

  /** Creates a user holding the role user and any extra roles the caller may give. */
  async create(
    principal: Principal,
    input: { email: string; password: string; name?: string | undefined; roles?: string[] | undefined },
  ) {
    const extra = [...new Set(input.roles ?? [])].filter((r) => r !== USER_ROLE);
    if (extra.length > 0) {
      if (!principal.permissions.has('modify-user-role'))
        throw new HttpError(403, 'Giving roles needs the modify-user-role permission.');
      for (const name of extra) {
        const role = await this.roles.find(name);
        if (!role) throw new HttpError(404, `There is no role named ${name}.`);
        this.policy.grants.mayGrantRole(principal, role);
      }
    }
    try {
      await this.usersService.create({ email: input.email, name: input.name || null, password: input.password }, [
        USER_ROLE,
        ...extra,
      ]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, USER_EXISTS);
      throw error;
    }
    const { rows } = await this.admin.list({
      q: undefined,
      order: 'asc',
      offset: 0,
      onlyUserId: (await this.require(input.email)).id,
    });
    const row = rows[0];
    if (!row) throw new Error('created user not found');
    return { user: toUserItem(row), message: 'User created' };
  }

  /**
   * Deletes a user; never oneself, never the last administrator, and only an account that holds
   * nothing the caller lacks (the policy's account guard).
   */
  async delete(principal: Principal, email: string) {
    const user = await this.require(email);
    if (user.id === principal.userId) throw new HttpError(409, 'You cannot delete your own account.');
    await this.policy.grants.mayActOnAccount(principal, user);
    const outcome = await this.admin.deleteKeepingHolder(user.id, ADMIN_ROLE);
    if (outcome === 'last-holder')
      throw new HttpError(409, 'This is the last administrator: give the admin role to someone else first.');
    return { message: 'User Deleted' };
  }

  /**
   * Resets another user's second factors (issue 20): never one's own (My account does that), only
   * an account holding nothing the caller lacks (the policy's account guard, as for a password
   * reset). Factors, recovery codes and every token go in one transaction; a role requiring a factor
   * sends them through enrolment at their next sign-in.
   */
  async resetTwoFactor(principal: Principal, email: string) {
    const user = await this.require(email);
    if (user.id === principal.userId)
      throw new HttpError(409, 'You cannot reset your own second factors here: manage them in My account.');
    await this.policy.grants.mayActOnAccount(principal, user);
    const done = await this.secondFactors.repo.resetAll(user.id);
    for (const hash of done.tokenHashes) this.secondFactors.revoked(hash);
    const had = done.totp || done.passkeys > 0 || done.recoveryCodes > 0;
    return {
      message: had
        ? `The second factors of ${user.email} were reset and their sessions ended. They set up a new one at their next sign-in if a role requires it.`
        : `${user.email} had no second factor; their sessions were ended.`,
      detail: {
        totp: done.totp,
        passkeys: done.passkeys,
        recovery_codes: done.recoveryCodes,
        sessions: done.tokenHashes.length,
      },
    };
  }

  /** A user's roles: one's own for anyone, others' with list-user-role. */
  async rolesOf(principal: Principal, email: string) {
    if (email !== principal.email && !principal.permissions.has('list-user-role')) {
      throw new HttpError(403, 'Reading another user’s roles needs the list-user-role permission.');
    }
    const user = await this.require(email);
    return { roles: await this.users.rolesOf(user.id) };
  }

  /** Takes a role from a user; the admin role keeps one holder. */
  async removeRole(principal: Principal, email: string, roleName: string) {
    const user = await this.require(email);
    const role = await this.roles.find(roleName);
    if (!role) throw new HttpError(404, `There is no role named ${roleName}.`);
    this.policy.grants.mayGrantRole(principal, role);
    const outcome = await this.admin.removeRoleKeepingHolder(user.id, roleName, ADMIN_ROLE);
    if (outcome === 'last-holder') throw new HttpError(409, 'The admin role must keep at least one holder.');
    if (outcome === 'not-held') throw new HttpError(404, `${email} does not hold the role ${roleName}.`);
    return { message: 'Role updated' };
  }

  /** Groups and agents a user reaches through nested groups: one's own, or others' with list-group. */
  async reach(principal: Principal, email: string) {
    if (email !== principal.email && !principal.permissions.has('list-group')) {
      throw new HttpError(403, 'Reading another user’s reach needs the list-group permission.');
    }
    const user = await this.require(email);
    const groups = await this.groups.memberships(user.id);
    const rows = await this.groups.agentsOf(groups);
    const agents = new Map<string, { id: string; hostname: string; via: string[] }>();
    for (const row of rows) {
      const entry = agents.get(row.id) ?? { id: row.id, hostname: row.hostname, via: [] };
      entry.via.push(row.group);
      agents.set(row.id, entry);
    }
    return { groups, agents: [...agents.values()] };
  }
}
