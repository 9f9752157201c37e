import { LOCKOUT_MINUTES, LOCKOUT_THRESHOLD } from '@gatehouse/contracts';
import ssh2 from 'ssh2';
import type { AuthContext } from 'ssh2';
import { verifyAgainstNothing, verifyPassword } from '../modules/auth/passwords.js';
import type { LoginGuardRepository } from '../modules/auth/login-guard.repository.js';
import { fingerprintOf } from '../modules/ssh-keys/public-key.js';
import type { SshKeysRepository } from '../modules/ssh-keys/ssh-keys.repository.js';
import type { UserRow, UsersRepository } from '../modules/users/users.repository.js';

/** `alice@example.com@web-01` → the user's email (or its local part) and the host. */
export function parseGatewayUsername(username: string): { user: string; host: string } | undefined {
  const at = username.lastIndexOf('@');
  if (at <= 0 || at === username.length - 1) return undefined;
  return { user: username.slice(0, at).toLowerCase(), host: username.slice(at + 1).toLowerCase() };
}

/** The outcome of one authentication attempt. */
export type AuthOutcome =
  { ok: true; user: UserRow; method: 'password' | 'publickey' } | { ok: false; probe?: boolean };

/**
 * Checks a gateway login. Passwords go through the same lockout as the console; a public key
 * counts only once its signature verifies: a probe without a signature is answered (so the client
 * signs) but authenticates nobody. Unknown users and wrong passwords look the same.
 */
export class GatewayAuth {
  constructor(
    private readonly users: UsersRepository,
    private readonly keys: SshKeysRepository,
    private readonly guard: LoginGuardRepository,
    private readonly findByLocalPart: (local: string) => Promise<UserRow | undefined>,
  ) {}

  private async resolveUser(name: string): Promise<UserRow | undefined> {
    return name.includes('@') ? this.users.findByEmail(name) : this.findByLocalPart(name);
  }

  /** Decides one authentication request. */
  async check(ctx: AuthContext, name: string): Promise<AuthOutcome> {
    if (ctx.method === 'password') {
      const user = await this.resolveUser(name);
      const emailKey = user?.email ?? name;
      if (await this.guard.lockedUntil(emailKey)) return { ok: false };
      const good = user?.passwordHash
        ? await verifyPassword(user.passwordHash, ctx.password)
        : await verifyAgainstNothing(ctx.password);
      if (!user || !good) {
        await this.guard.recordFailure(emailKey, LOCKOUT_THRESHOLD, LOCKOUT_MINUTES);
        return { ok: false };
      }
      await this.guard.clearFailures(emailKey);
      return { ok: true, user, method: 'password' };
    }
    if (ctx.method === 'publickey') {
      const user = await this.resolveUser(name);
      if (!user) return { ok: false };
      const fingerprint = fingerprintOf(ctx.key.data);
      const registered = (await this.keys.listFor(user.id)).find((k) => k.fingerprint === fingerprint);
      if (!registered) return { ok: false };
      if (!ctx.signature || !ctx.blob) return { ok: false, probe: true };
      const key = ssh2.utils.parseKey(ctx.key.data);
      if (key instanceof Error || !key.verify(ctx.blob, ctx.signature, ctx.hashAlgo)) return { ok: false };
      await this.keys.touch(registered.id);
      return { ok: true, user, method: 'publickey' };
    }
    return { ok: false };
  }
}
