import type { Database } from './db/client.js';
import { AuditRepository } from './modules/audit/audit.repository.js';
import { AuthService } from './modules/auth/auth.service.js';
import { LoginGuardRepository } from './modules/auth/login-guard.repository.js';
import { TokensRepository } from './modules/auth/tokens.repository.js';
import { RolesRepository } from './modules/roles/roles.repository.js';
import { SecurityService } from './modules/settings/security.service.js';
import { SettingsRepository } from './modules/settings/settings.repository.js';
import { UsersRepository } from './modules/users/users.repository.js';
import { UsersService } from './modules/users/users.service.js';

/** The repositories and services of one server, wired over one database. */
export type Services = ReturnType<typeof createServices>;

/** Wires repositories and services; the HTTP layer, the demo seeder and tests all use this. */
export function createServices(database: Database, options: { loginRatePerMinute: number }) {
  const { db } = database;
  const users = new UsersRepository(db);
  const roles = new RolesRepository(db);
  const settings = new SettingsRepository(db);
  const audit = new AuditRepository(db);
  const tokens = new TokensRepository(db);
  const security = new SecurityService(settings);
  const auth = new AuthService(users, tokens, new LoginGuardRepository(db), security, options.loginRatePerMinute);
  return {
    database,
    repositories: { users, roles, settings, audit, tokens },
    security,
    auth,
    usersService: new UsersService(users, roles),
  };
}
