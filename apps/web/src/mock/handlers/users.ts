import { MockError, type MockContext, type NamedHandler, route } from '../http';
import { list, required, text } from '../body';
import { ed25519PublicKey } from '../data/infrastructure';
import { Prng, base64, seedOf } from '../prng';
import type { MockSshKey, MockState } from '../types';
import { keepResetMail } from './mail';
import { reachOf } from './reach';
import { checkNewPassword, findUser, otherAdmins, roleSummaries, userAt, userItem } from './people';

const SORTS = ['email', 'name', 'created_at'] as const;

/** SHA256 fingerprint of an OpenSSH public key, as ssh-keygen -l prints it. */
async function fingerprint(publicKey: string): Promise<string> {
  const blob = Uint8Array.from(atob(publicKey.split(/\s+/)[1] ?? ''), (c) => c.charCodeAt(0));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', blob));
  return `SHA256:${base64(digest).replace(/=+$/, '')}`;
}

async function sshKey(name: string, publicKey: string, created: number, used: number | null): Promise<MockSshKey> {
  return {
    id: new Prng(seedOf(publicKey)).uuid(),
    name,
    type: publicKey.split(/\s+/)[0] ?? 'ssh-ed25519',
    fingerprint: await fingerprint(publicKey),
    public_key: publicKey,
    created_at: new Date(created).toISOString(),
    last_used_at: used === null ? null : new Date(used).toISOString(),
  };
}

/** The caller's keys; two are generated the first time someone asks. */
async function keysOf(state: MockState, email: string): Promise<MockSshKey[]> {
  const known = state.sshKeys.get(email);
  if (known) return known;
  const rng = new Prng(seedOf(`ssh:${email}`));
  const login = email.split('@')[0] ?? 'me';
  const keys = [
    await sshKey(
      'Laptop',
      ed25519PublicKey(rng, `${login}@laptop`),
      state.now - 90 * 86_400_000,
      state.now - 3_600_000,
    ),
    await sshKey('Yubikey', ed25519PublicKey(rng, `${login}@yubikey`), state.now - 20 * 86_400_000, null),
  ];
  state.sshKeys.set(email, keys);
  return keys;
}

/** Users, their roles and reach, passwords and SSH keys. */
export function userHandlers(state: MockState, context: MockContext): NamedHandler[] {
  return [
    route(context, 'listUsers', ({ query }) => {
      const q = (query.get('q') ?? '').trim().toLowerCase();
      const sort = SORTS.find((s) => s === query.get('sort'));
      const order = query.get('order') === 'desc' ? -1 : 1;
      const matches = state.users
        .filter((u) => q === '' || u.email.includes(q) || (u.name ?? '').toLowerCase().includes(q))
        .sort((a, b) => (sort ? order * (a[sort] ?? '').localeCompare(b[sort] ?? '') : 0));
      const offset = Number(query.get('offset') ?? 0) || 0;
      const limit = Number(query.get('limit') ?? 0) || matches.length;
      const page = matches.slice(offset, offset + limit);
      return { users: page.map((u) => userItem(state, u)), total: matches.length };
    }),
    route(
      context,
      'createUser',
      ({ body }) => {
        const email = required(body, 'email', 'Email is required').toLowerCase();
        if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
          throw new MockError(400, 'The Email you entered is not a valid format!');
        if (findUser(state, email)) throw new MockError(409, 'The user you are trying to add has already been added.');
        checkNewPassword(text(body, 'password'));
        const roles = list(body, 'roles');
        const unknown = roles.filter((name) => !state.roles.some((role) => role.name === name));
        if (unknown.length > 0) throw new MockError(400, `No such role: ${unknown.join(', ')}`);
        const user = {
          id: new Prng(seedOf(email)).uuid(),
          email,
          name: text(body, 'name') || null,
          roles: [...new Set([...roles, 'user'])],
          created_at: new Date().toISOString(),
        };
        state.users.push(user);
        return { user: userItem(state, user), message: 'User created' };
      },
      201,
    ),
    route(context, 'deleteUser', ({ params, caller }) => {
      const user = userAt(state, params.email ?? '');
      if (user.email === caller) throw new MockError(409, 'You cannot delete your own account.');
      if (user.roles.includes('admin') && otherAdmins(state, user.email) === 0)
        throw new MockError(409, 'The last administrator cannot be deleted.');
      state.users = state.users.filter((u) => u !== user);
      for (const group of state.groups) group.users = group.users.filter((email) => email !== user.email);
      for (const tunnel of state.tunnels) tunnel.users = tunnel.users.filter((id) => id !== user.id);
      return { message: 'User deleted' };
    }),
    route(context, 'userRoles', ({ params }) => ({ roles: roleSummaries(state, userAt(state, params.email ?? '')) })),
    route(context, 'removeUserRole', ({ params }) => {
      const user = userAt(state, params.email ?? '');
      const role = params.role ?? '';
      if (!user.roles.includes(role)) throw new MockError(404, `${user.email} does not hold the role ${role}.`);
      if (role === 'admin' && otherAdmins(state, user.email) === 0)
        throw new MockError(409, 'The admin role keeps at least one holder.');
      user.roles = user.roles.filter((name) => name !== role);
      return { message: 'Role removed' };
    }),
    route(context, 'userReach', ({ params }) => reachOf(state, userAt(state, params.email ?? '').email)),
    route(context, 'resetUserPassword', ({ params }) => {
      const user = userAt(state, params.email ?? '');
      keepResetMail(state, user.email, 'An administrator asked Gatehouse to reset your password.');
      return { message: `A link to set a new password was sent to ${user.email}.` };
    }),
    route(context, 'resetUserTwoFactor', ({ params, caller }) => {
      const user = userAt(state, params.email ?? '');
      if (user.email === caller) throw new MockError(409, 'Remove your own second factors in My account.');
      // Mock users have no second factors (userItem answers none): there is nothing to remove.
      return { message: `The second factors of ${user.email} were reset; they sign in with their password alone.` };
    }),
    route(context, 'listSshKeys', async ({ caller }) => ({ keys: await keysOf(state, caller ?? '') })),
    route(
      context,
      'addSshKey',
      async ({ body, caller }) => {
        const name = required(body, 'name', 'Name is required');
        const publicKey = required(body, 'public_key', 'The public key is required');
        if (!/^(ssh-(ed25519|rsa|dss)|ecdsa-sha2-nistp\d+|sk-\S+) [A-Za-z0-9+/]+={0,3}( .*)?$/.test(publicKey))
          throw new MockError(400, 'That is not an OpenSSH public key (type, base64, optional comment).');
        const keys = await keysOf(state, caller ?? '');
        const key = await sshKey(name, publicKey, Date.now(), null);
        if (keys.some((k) => k.fingerprint === key.fingerprint))
          throw new MockError(409, 'The key is registered already.');
        keys.push(key);
        return { key, message: 'Key added' };
      },
      201,
    ),
    route(context, 'deleteSshKey', async ({ params, caller }) => {
      const keys = await keysOf(state, caller ?? '');
      const index = keys.findIndex((key) => key.id === params.id);
      if (index < 0) throw new MockError(404, 'No such key.');
      keys.splice(index, 1);
      return { message: 'Key removed' };
    }),
  ];
}
