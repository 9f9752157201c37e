import { ADMIN_ROLE, PERMISSIONS, type Permission, type RoleListItem } from '@gatehouse/contracts';
import type { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { Principal } from '../auth/principal.js';
import type { AccessPolicy } from '../policy/access-policy.js';
import { assertMayGrantPermissions as assertMayGrant } from '../policy/grant-guards.js';
import type { UsersAdminRepository } from '../users/users-admin.repository.js';
import type { RoleRow, RolesAdminRepository } from './roles-admin.repository.js';

/** Spec §8's duplicate text for roles, two spaces included. */
export const ROLE_EXISTS = 'That role name is already in use.  Please use a different name.';

function toItem(row: RoleRow): z.infer<typeof RoleListItem> {
  return {
    name: row.name,
    builtin: row.builtin,
    permissions: row.permissions as Permission[],
    user_count: row.userCount,
    require_two_factor: row.requireTwoFactor,
  };
}

/** Role administration with the rules that keep the admin role whole. */
export class RolesService {
  constructor(
    private readonly roles: RolesAdminRepository,
    private readonly users: UsersAdminRepository,
    private readonly policy: AccessPolicy,
  ) {}

  private async require(name: string): Promise<RoleRow> {
    const role = await this.roles.find(name);
    if (!role) throw new HttpError(404, `There is no role named ${name}.`);
    return role;
  }

  /** Every role. */
  async list() {
    return { roles: (await this.roles.list()).map(toItem) };
  }

  /** One role with its holders. */
  async get(name: string) {
    const role = await this.require(name);
    return { role: { ...toItem(role), users: await this.roles.holders(name) } };
  }

  /** Creates a role with permissions the caller holds. */
  async create(principal: Principal, name: string, permissions: Permission[]) {
    assertMayGrant(principal, permissions);
    try {
      await this.roles.create(name, permissions);
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, ROLE_EXISTS);
      throw error;
    }
    return { role: toItem(await this.require(name)), message: 'Role created' };
  }

  /** Adds permissions the caller holds. */
  async addPermissions(principal: Principal, name: string, permissions: Permission[]) {
    await this.require(name);
    if (name === ADMIN_ROLE) throw new HttpError(409, 'The admin role always holds every permission.');
    if (permissions.length === 0) throw new HttpError(400, 'Name at least one permission.');
    assertMayGrant(principal, permissions);
    await this.roles.addPermissions(name, permissions);
    return { message: 'Role updated' };
  }

  /** Removes permissions; never from the admin role. */
  async removePermissions(principal: Principal, name: string, permissions: Permission[]) {
    await this.require(name);
    if (name === ADMIN_ROLE) throw new HttpError(409, 'The admin role always holds every permission.');
    if (permissions.length === 0) throw new HttpError(400, 'Name at least one permission.');
    assertMayGrant(principal, permissions);
    await this.roles.removePermissions(name, permissions);
    return { message: 'Role updated' };
  }

  /** Deletes a role; never a built-in one. */
  async delete(principal: Principal, name: string) {
    const role = await this.require(name);
    if (role.builtin) throw new HttpError(409, `The ${name} role is built in and cannot be deleted.`);
    assertMayGrant(principal, role.permissions);
    await this.roles.delete(name);
    return { message: 'Role deleted' };
  }

  /** Gives the role to users (the policy's role guard first); 409 when every one of them holds it already. */
  async addUsers(principal: Principal, name: string, emails: string[]) {
    const role = await this.require(name);
    this.policy.grants.mayGrantRole(principal, role);
    const found = await this.users.findByEmails([...new Set(emails)]);
    const missing = emails.filter((e) => !found.some((f) => f.email === e));
    if (missing.length > 0) throw new HttpError(404, `No user has the email ${missing.join(', ')}.`);
    const added = await this.roles.addUsers(
      name,
      found.map((f) => f.id),
    );
    if (added === 0) throw new HttpError(409, 'The user you are trying to add has already been added.');
    return { message: 'Role updated' };
  }

  /**
   * Requires (or stops requiring) a second factor of the role's holders. Requiring only tightens;
   * lifting loosens the role, so it needs the caller to hold each of its permissions, like granting them.
   */
  async setTwoFactor(principal: Principal, name: string, required: boolean) {
    const role = await this.require(name);
    if (!required) assertMayGrant(principal, role.permissions);
    await this.roles.setRequireTwoFactor(name, required);
    return {
      message: required
        ? `Holders of ${name} must now set up a second factor before anything else.`
        : `Holders of ${name} no longer need a second factor.`,
    };
  }

  /** Every permission of the catalogue. */
  catalogue() {
    return { permissions: [...PERMISSIONS] };
  }
}
