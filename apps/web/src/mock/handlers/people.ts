import { ADMIN_ROLE, USER_ROLE, effectivePermissions } from '@gatehouse/contracts';
import { found } from '../body';
import { MockError, mockToken } from '../http';
import { Prng, seedOf } from '../prng';
import type { Answer, MockState, MockUser } from '../types';

/** The user with this email (emails compare without case). */
export function findUser(state: MockState, email: string): MockUser | undefined {
  const wanted = email.toLowerCase();
  return state.users.find((user) => user.email === wanted);
}

/** The user a path names, or 404. */
export function userAt(state: MockState, email: string): MockUser {
  return found(findUser(state, email), `The user ${email}`);
}

/**
 * The caller as an administrator: mock sign-in takes any email, so someone new joins the mock
 * organisation, and everyone signed in holds admin (the mock shows every screen).
 */
export function ensureCaller(state: MockState, email: string, name: string | null = null): MockUser {
  const known = findUser(state, email);
  if (known) {
    if (!known.roles.includes(ADMIN_ROLE)) known.roles.unshift(ADMIN_ROLE);
    return known;
  }
  const user: MockUser = {
    id: new Prng(seedOf(email)).uuid(),
    email: email.toLowerCase(),
    name,
    roles: [ADMIN_ROLE, USER_ROLE],
    created_at: new Date(state.now).toISOString(),
  };
  state.users.push(user);
  return user;
}

/** A user's roles with their permissions. */
export function roleSummaries(state: MockState, user: MockUser): { name: string; permissions: string[] }[] {
  return state.roles
    .filter((role) => user.roles.includes(role.name))
    .map((role) => ({ name: role.name, permissions: [...role.permissions] }));
}

/** The signed-in user as the login answer gives it, with a mock token that names them. */
export function signedIn(state: MockState, user: MockUser): Answer<'login'>['response']['user'] {
  const roles = roleSummaries(state, user);
  return {
    authentication_token: mockToken(user.email),
    email: user.email,
    name: user.name,
    roles,
    effectivePermissions: effectivePermissions(roles),
    expires_at: new Date(Date.now() + state.security.effectiveTokenMaxAge * 1000).toISOString(),
  };
}

/** The list item of a user: role names and the groups they are a direct member of. */
export function userItem(state: MockState, user: MockUser): Answer<'listUsers'>['users'][number] {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    roles: [...user.roles],
    groups: state.groups.filter((group) => group.users.includes(user.email)).map((group) => group.name),
    created_at: user.created_at,
    two_factor: { totp: false, passkeys: 0 },
  };
}

/** The rule of spec §5 for a new password, worded like the server. */
export function checkNewPassword(password: string | undefined, confirm?: string): void {
  const problems: string[] = [];
  if (!password || password.length < 8) problems.push('Passwords need to be at least 8 characters long');
  if (confirm !== undefined && confirm !== password) problems.push('The new password and its confirmation differ');
  if (problems.length > 0) throw new MockError(400, problems.join('. '), { errors: problems });
}

/** Every holder of admin but this user: the last one keeps the role. */
export function otherAdmins(state: MockState, email: string): number {
  return state.users.filter((user) => user.email !== email && user.roles.includes(ADMIN_ROLE)).length;
}
