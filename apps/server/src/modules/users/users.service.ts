import { randomBytes } from 'node:crypto';
import { ADMIN_ROLE, BUILTIN_ROLE_PERMISSIONS, USER_ROLE } from '@gatehouse/contracts';
import { hashPassword } from '../auth/passwords.js';
import type { RolesRepository } from '../roles/roles.repository.js';
import type { UsersRepository } from './users.repository.js';

/** What start-up did about the first administrator. */
export type FirstAdminOutcome =
  { created: false } | { created: true; email: string; generatedPassword: string | undefined };

/** Users and the built-in roles. */
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly roles: RolesRepository,
  ) {}

  /**
   * Makes sure the built-in roles exist. The admin role holds every permission (new ones arrive with
   * upgrades); the user role gets its defaults only when it is created, so a permission an
   * administrator took from it (create-tunnel) stays taken across restarts.
   */
  async ensureBuiltinRoles(): Promise<void> {
    for (const [name, permissions] of Object.entries(BUILTIN_ROLE_PERMISSIONS)) {
      if (name === ADMIN_ROLE || !(await this.roles.exists(name))) await this.roles.ensure(name, permissions, true);
    }
  }

  /**
   * On a database without users, creates the first administrator, with a generated password when
   * none is configured (the caller prints it once).
   */
  async ensureFirstAdmin(email: string | undefined, password: string | undefined): Promise<FirstAdminOutcome> {
    if ((await this.users.count()) > 0) return { created: false };
    const generated = password ? undefined : randomBytes(12).toString('base64url');
    const adminEmail = email ?? 'admin@gatehouse.local';
    await this.create({ email: adminEmail, name: 'Administrator', password: password ?? generated ?? '' }, [
      ADMIN_ROLE,
      USER_ROLE,
    ]);
    return { created: true, email: adminEmail, generatedPassword: generated };
  }

  /** Creates a user with a password and roles. */
  async create(input: { email: string; name: string | null; password: string }, roleNames: string[]) {
    return this.users.create(
      { email: input.email, name: input.name, passwordHash: await hashPassword(input.password) },
      roleNames,
    );
  }
}
