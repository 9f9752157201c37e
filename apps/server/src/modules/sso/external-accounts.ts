import type { GroupsRepository } from '../groups/groups.repository.js';
import type { RolesRepository } from '../roles/roles.repository.js';
import type { UsersRepository } from '../users/users.repository.js';

/** Who a directory or identity provider says signed in, with the groups it lists for them. */
export interface ExternalIdentity {
  email: string;
  name: string | null;
  groups: string[];
}

/**
 * Local accounts for people who sign in through a directory (LDAP) or single sign-on (OIDC,
 * SAML). The mapping: a directory or IdP group named like a Gatehouse role gives that role, and one
 * named like a Gatehouse group makes the user a member. Accounts are created on first sign-in.
 * Accounts without a local password hold exactly the roles the provider gives (plus `user`);
 * accounts with a password (made here) keep roles granted here too.
 */
export class ExternalAccounts {
  constructor(
    private readonly users: UsersRepository,
    private readonly roles: RolesRepository,
    private readonly groups: GroupsRepository,
  ) {}

  async provision(identity: ExternalIdentity) {
    const email = identity.email.trim().toLowerCase();
    const roleNames: string[] = [];
    for (const group of new Set(identity.groups)) if (await this.roles.exists(group)) roleNames.push(group);
    let user = await this.users.findByEmail(email);
    if (!user) {
      await this.users.create({ email, name: identity.name, passwordHash: null }, ['user', ...roleNames]);
      user = await this.users.findByEmail(email);
      if (!user) throw new Error('the user just created is missing');
    } else {
      const held = (await this.users.rolesOf(user.id)).map((r) => r.name);
      for (const role of roleNames) if (!held.includes(role)) await this.users.addRole(user.id, role);
      if (!user.passwordHash)
        for (const role of held)
          if (role !== 'user' && !roleNames.includes(role)) await this.users.removeRole(user.id, role);
    }
    for (const group of new Set(identity.groups))
      if (await this.groups.exists(group)) await this.groups.addUsers(group, [user.id]);
    return user;
  }
}
