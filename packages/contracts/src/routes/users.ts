import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from '../limits.js';
import { MessageBody, defineRoute } from '../route.js';
import { DisplayName, Email, ListQuery, NewPassword, Timestamp } from './common.js';
import { RoleSummary } from './auth.js';

/** A user as lists show them. */
export const UserListItem = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    roles: z.array(z.string()).describe('Role names'),
    groups: z.array(z.string()).describe('Groups the user is a direct member of'),
    created_at: Timestamp,
    two_factor: z
      .object({
        totp: z.boolean().describe('An authenticator app is enrolled'),
        passkeys: z.number().int().describe('How many passkeys or security keys are registered'),
      })
      .describe('The user’s second factors (never a secret)'),
  })
  .meta({ id: 'UserListItem' });

const emailParam = z.object({ email: Email });

export const listUsers = defineRoute({
  id: 'user.list',
  method: 'GET',
  path: '/api/user',
  tag: 'users',
  summary:
    'Users. Holders of list-user get everyone; anyone else gets only themselves. With `limit`, one page sorted and searched on the server, and `total` counts every match.',
  access: { kind: 'signed-in' },
  query: ListQuery(['email', 'name', 'created_at']),
  response: z.object({ users: z.array(UserListItem), total: z.number().int() }),
});

export const createUser = defineRoute({
  id: 'user.create',
  method: 'POST',
  path: '/api/user',
  tag: 'users',
  summary: 'Create a user with a password; they hold the role user plus any roles named.',
  access: { kind: 'permissions', anyOf: ['modify-user'] },
  body: z.strictObject({
    email: Email,
    password: NewPassword,
    name: DisplayName.optional(),
    roles: z.array(z.string()).max(50).optional().describe('Extra roles; needs modify-user-role'),
  }),
  status: 201,
  response: z.object({ user: UserListItem, message: z.string() }),
  errors: { 409: 'The user you are trying to add has already been added.' },
});

export const deleteUser = defineRoute({
  id: 'user.delete',
  method: 'DELETE',
  path: '/api/user/{email}',
  tag: 'users',
  summary: 'Delete a user and revoke their tokens. Nobody deletes themselves or the last holder of admin.',
  access: { kind: 'permissions', anyOf: ['modify-user'] },
  params: emailParam,
  response: MessageBody,
  errors: { 404: 'No such user', 409: 'Last administrator or own account' },
});

export const userRoles = defineRoute({
  id: 'user.roles',
  method: 'GET',
  path: '/api/user/{email}/role',
  tag: 'users',
  summary: 'The roles of a user. Anyone may read their own; others need list-user-role.',
  access: { kind: 'signed-in' },
  params: emailParam,
  response: z.object({ roles: z.array(RoleSummary) }),
});

export const removeUserRole = defineRoute({
  id: 'user.role.remove',
  method: 'DELETE',
  path: '/api/user/{email}/role/{role}',
  tag: 'users',
  summary: 'Take a role from a user. The admin role keeps at least one holder.',
  access: { kind: 'permissions', anyOf: ['modify-user-role'] },
  params: z.object({ email: Email, role: z.string().min(1).max(64) }),
  response: MessageBody,
});

/** What a user can reach through their groups, nested groups included. */
export const Reach = z
  .object({
    groups: z.array(z.string()).describe('Every group the user belongs to, directly or through nesting'),
    agents: z.array(z.object({ id: z.string(), hostname: z.string(), via: z.array(z.string()) })),
  })
  .meta({ id: 'Reach' });

export const userReach = defineRoute({
  id: 'user.reach',
  method: 'GET',
  path: '/api/user/{email}/reach',
  tag: 'users',
  summary: 'Groups and agents a user reaches through nested groups. Own reach for anyone; others need list-group.',
  access: { kind: 'signed-in' },
  params: emailParam,
  response: Reach,
});

export const resetUserPassword = defineRoute({
  id: 'user.password.reset-other',
  method: 'POST',
  path: '/api/user/{email}/reset-password',
  tag: 'users',
  summary: 'Email a user a single-use link (valid one hour) to set a new password.',
  access: { kind: 'permissions', anyOf: ['modify-user'] },
  params: emailParam,
  response: MessageBody,
});

export const resetUserTwoFactor = defineRoute({
  id: 'user.two-factor.reset',
  method: 'DELETE',
  path: '/api/user/{email}/two-factor',
  tag: 'users',
  summary:
    'Reset another user’s second factors (they lost their phone and recovery codes): removes their authenticator ' +
    'app, passkeys and recovery codes in one transaction and ends every session of theirs. A role of theirs that ' +
    'requires a second factor makes them enrol again at their next sign-in. Not on oneself (My account does ' +
    'that), and only on an account holding nothing the caller lacks. Needs fresh authentication.',
  access: { kind: 'permissions', anyOf: ['modify-user'] },
  fresh: true,
  params: emailParam,
  response: MessageBody,
  errors: { 403: 'The account holds more than the caller', 404: 'No such user', 409: 'Own account' },
});

export const forgotPassword = defineRoute({
  id: 'user.password.forgot',
  method: 'POST',
  path: '/api/user/forgot-password',
  tag: 'users',
  summary: 'Ask for a reset link by email. The answer is the same whether or not the account exists.',
  access: { kind: 'public' },
  body: z.object({ email: Email }),
  response: MessageBody,
});

export const resetPassword = defineRoute({
  id: 'user.password.reset',
  method: 'POST',
  path: '/api/user/reset-password',
  tag: 'users',
  summary: 'Set a new password with the token of a reset link. The token works once; every session of the user ends.',
  access: { kind: 'public' },
  body: z.strictObject({
    token: z.string({ error: 'The reset token is missing' }).min(1, 'The reset token is missing').max(200),
    new_password: NewPassword,
    new_password_confirm: z.string().max(MAX_PASSWORD_LENGTH),
  }),
  response: MessageBody,
  errors: { 400: 'Invalid or expired token, or a password rule' },
});

export const signUp = defineRoute({
  id: 'user.signup',
  method: 'POST',
  path: '/api/users',
  tag: 'users',
  summary:
    'Self sign-up, when the general settings allow it. The account is created unverified (role user) and a ' +
    'one-time link is mailed to the address; until it is opened the account cannot sign in anywhere.',
  access: { kind: 'public' },
  body: z.object({ email: Email, name: DisplayName.min(1, 'Name is required'), password: NewPassword }),
  status: 201,
  response: z.object({ message: z.string(), email: z.string() }),
  errors: { 403: 'Sign-up is turned off', 409: 'The email is already registered' },
});

export const verifyEmail = defineRoute({
  id: 'user.verify-email',
  method: 'POST',
  path: '/api/user/verify-email',
  tag: 'users',
  summary:
    'Open a sign-up’s verification link: the token works once, within its lifetime; then the account can sign in.',
  access: { kind: 'public' },
  body: z.strictObject({
    token: z
      .string({ error: 'The verification token is missing' })
      .min(1, 'The verification token is missing')
      .max(200),
  }),
  response: MessageBody,
  errors: { 400: 'Invalid, used or expired link' },
});

/** A registered SSH public key of a user. */
export const SshKey = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.string().describe('Key algorithm, such as ssh-ed25519'),
    fingerprint: z.string().describe('SHA256 fingerprint as ssh-keygen -l prints it'),
    public_key: z.string(),
    created_at: Timestamp,
    last_used_at: Timestamp.nullable(),
  })
  .meta({ id: 'SshKey' });

export const listSshKeys = defineRoute({
  id: 'user.ssh-key.list',
  method: 'GET',
  path: '/api/user/me/ssh-keys',
  tag: 'users',
  summary: 'The caller’s SSH public keys for the gateway.',
  access: { kind: 'signed-in' },
  response: z.object({ keys: z.array(SshKey) }),
});

export const addSshKey = defineRoute({
  id: 'user.ssh-key.add',
  method: 'POST',
  path: '/api/user/me/ssh-keys',
  tag: 'users',
  summary: 'Register an SSH public key (OpenSSH format: type, base64, optional comment).',
  access: { kind: 'signed-in' },
  body: z.strictObject({
    name: DisplayName.min(1, 'Name is required'),
    public_key: z
      .string({ error: 'The public key is required' })
      .trim()
      .min(1, 'The public key is required')
      .max(16_384),
  }),
  status: 201,
  response: z.object({ key: SshKey, message: z.string() }),
  errors: { 409: 'The key is registered already' },
});

export const deleteSshKey = defineRoute({
  id: 'user.ssh-key.delete',
  method: 'DELETE',
  path: '/api/user/me/ssh-keys/{id}',
  tag: 'users',
  summary: 'Remove one of the caller’s SSH keys.',
  access: { kind: 'signed-in' },
  params: z.object({ id: z.uuid({ error: 'Not a key id' }) }),
  response: MessageBody,
});
