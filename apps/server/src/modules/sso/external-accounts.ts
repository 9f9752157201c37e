import { ADMIN_ROLE, USER_ROLE } from '@gatehouse/contracts';
import { HttpError } from '../../http/errors.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { ExternalGrantsRepository } from './external-grants.repository.js';

/** Who a directory or identity provider says signed in, with the groups it lists for them. */
export interface ExternalIdentity {
  email: string;
  name: string | null;
  groups: string[];
}

/** The refusal when a provider names an administrator's account without an admin-mapped group. */
export const ADMIN_NOT_MAPPED =
  'This account holds the admin role, and the identity provider did not send a group mapped to admin in ' +
  'Settings → Single sign-on, so it cannot sign it in. Administrators sign in with their password ' +
  '(the administrator link on the sign-in screen).';

/**
 * Local accounts for people who sign in through a directory (LDAP) or single sign-on (OIDC,
 * SAML). Accounts are created on first sign-in. The mapping, re-applied on every sign-in:
 * - a provider group named like a Gatehouse role gives that role, and one named like a Gatehouse
 *   group makes the user a member; what the provider gave is recorded, and removed as soon as it
 *   stops sending it, while roles and memberships given here stay;
 * - the admin role comes only from a group the administrator listed in admin_groups of the SSO
 *   configuration, never from a group merely named admin;
 * - an existing account holding the admin role (the break-glass administrator, or anyone made
 *   admin here) is signed in through the provider only when it sends an admin-mapped group, so a
 *   provider cannot take over an administrator by naming their email;
 * - an unverified self sign-up with the same email is never attached: it is deleted with its
 *   password, and the provider's verified user gets a fresh account (so someone who signs up with
 *   another person's address before their first single sign-on gains nothing, and cannot block it).
 */
export class ExternalAccounts {
  constructor(
    private readonly users: UsersRepository,
    private readonly grants: ExternalGrantsRepository,
    /** The admin-mapped provider groups, lower-case. */
    private readonly adminGroups: () => Promise<string[]>,
  ) {}

  async provision(identity: ExternalIdentity) {
    const email = identity.email.trim().toLowerCase();
    const sent = [...new Set(identity.groups)];
    const mapped = await this.adminGroups();
    const givesAdmin = sent.some((g) => mapped.includes(g.toLowerCase()));
    const roleNames = sent.filter((g) => g !== ADMIN_ROLE && g !== USER_ROLE);
    if (givesAdmin) roleNames.push(ADMIN_ROLE);

    let user = await this.users.findByEmail(email);
    if (user && !user.emailVerified) {
      await this.grants.deleteUnverified(user.id);
      user = undefined;
    }
    if (user) {
      // Admin held from here (not given by the provider earlier, which sync takes back) needs the mapping.
      const holdsAdmin = (await this.users.rolesOf(user.id)).some((r) => r.name === ADMIN_ROLE);
      const adminFromProvider = (await this.grants.givenRoles(user.id)).includes(ADMIN_ROLE);
      if (holdsAdmin && !adminFromProvider && !givesAdmin) throw new HttpError(403, ADMIN_NOT_MAPPED);
    } else {
      user = await this.users.create({ email, name: identity.name, passwordHash: null }, [USER_ROLE]);
    }
    await this.grants.sync(user.id, roleNames, sent);
    return user;
  }
}
