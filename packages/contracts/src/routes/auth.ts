import { z } from 'zod';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../limits.js';
import { PERMISSIONS } from '../permissions.js';
import { MessageBody, defineRoute } from '../route.js';

/** A role as the console sees it: its name and permissions. */
export const RoleSummary = z.object({ name: z.string(), permissions: z.array(z.string()) }).meta({ id: 'RoleSummary' });

/** The signed-in user as the login answer gives it (spec §3 Signed-in user). */
export const SignedInUser = z
  .object({
    authentication_token: z.string().describe('Send it back in the Authentication-Token header'),
    email: z.string(),
    name: z.string().nullable().describe('Display name, when known'),
    roles: z.array(RoleSummary),
    effectivePermissions: z.array(z.enum(PERMISSIONS)).describe('Union of the roles’ permissions'),
    expires_at: z.string().describe('When the token stops working (ISO 8601, UTC)'),
  })
  .meta({ id: 'SignedInUser' });

/** Sign-in credentials. */
export const LoginBody = z
  .object({
    email: z
      .string({ error: 'Email is required' })
      .trim()
      .min(1, 'Email is required')
      .max(MAX_EMAIL_LENGTH, 'Email is too long'),
    password: z
      .string({ error: 'Password is required' })
      .min(1, 'Password is required')
      .max(MAX_PASSWORD_LENGTH, 'Password is too long'),
  })
  .meta({ id: 'LoginBody' });

export const login = defineRoute({
  id: 'auth.login',
  method: 'POST',
  path: '/api/login',
  tag: 'auth',
  summary:
    'Sign in with email and password. Failures answer response.errors; they never say whether the email exists. Five failures lock the email for 15 minutes.',
  access: { kind: 'public' },
  query: z.object({ include_auth_token: z.string().optional() }),
  body: LoginBody,
  response: z.object({ response: z.object({ user: SignedInUser }) }),
  errors: { 400: 'Email or password missing', 401: 'Wrong email or password', 429: 'Locked or rate limited' },
});

export const logout = defineRoute({
  id: 'auth.logout',
  method: 'POST',
  path: '/api/logout',
  tag: 'auth',
  summary: 'Revoke the token that made the call. Answers 200 even when the token was already gone.',
  access: { kind: 'public' },
  response: MessageBody,
});

/** The signed-in user's own view of themselves, for restoring a session in the console. */
export const CurrentUser = z
  .object({
    email: z.string(),
    name: z.string().nullable(),
    roles: z.array(RoleSummary),
    effectivePermissions: z.array(z.enum(PERMISSIONS)),
  })
  .meta({ id: 'CurrentUser' });

export const me = defineRoute({
  id: 'auth.me',
  method: 'GET',
  path: '/api/user/me',
  tag: 'auth',
  summary: 'The caller’s email, roles and effective permissions, as of now.',
  access: { kind: 'signed-in' },
  response: z.object({ user: CurrentUser }),
});

/** Change-password body (spec §2.7, §5, §7.7). */
export const ChangePasswordBody = z
  .strictObject({
    password: z
      .string({ error: 'Your password is required in order to change this' })
      .max(MAX_PASSWORD_LENGTH, 'Password is too long')
      .describe('The current password'),
    new_password: z.string({ error: 'New password must be text' }).max(MAX_PASSWORD_LENGTH, 'Password is too long'),
    new_password_confirm: z
      .string({ error: 'New password confirmation must be text' })
      .max(MAX_PASSWORD_LENGTH, 'Password is too long'),
  })
  .meta({ id: 'ChangePasswordBody' });

export const changePassword = defineRoute({
  id: 'user.password.change',
  method: 'POST',
  path: '/api/user/password',
  tag: 'auth',
  summary: `Change the caller’s password. The new one needs at least ${MIN_PASSWORD_LENGTH} characters and must match its confirmation; the current one must be right. Other tokens of the user are revoked.`,
  access: { kind: 'signed-in' },
  body: ChangePasswordBody,
  response: MessageBody,
  errors: { 400: 'A rule of §5 failed; errors lists each, one by one' },
});

/** An endpoint that needs fresh authorization when single-use limiting is on (spec §3). */
export const LimitedEndpoint = z
  .object({ method: z.string(), path: z.string().describe('Regular expression over the path') })
  .meta({ id: 'LimitedEndpoint' });

/** Security settings (spec §3). */
export const SecuritySettings = z
  .object({
    api_limit_single_use: z.boolean(),
    api_limit_freshness: z.boolean(),
    api_limit_endpoints: z.array(LimitedEndpoint),
    effectiveTokenMaxAge: z.number().int().describe('Token lifetime in seconds'),
  })
  .meta({ id: 'SecuritySettings' });

export const security = defineRoute({
  id: 'security.get',
  method: 'GET',
  path: '/api/security',
  tag: 'auth',
  summary: 'The security settings that shape how the console authenticates calls.',
  access: { kind: 'signed-in' },
  response: SecuritySettings,
});

/** Sign-in provider (spec §3 Auth config): 1 password, 2 SAML, 3 OIDC, 4 LDAP. */
export const ssoProvider = defineRoute({
  id: 'sso.provider',
  method: 'GET',
  path: '/sso',
  tag: 'auth',
  summary: 'Which sign-in provider is configured, so the sign-in screen offers the right form.',
  access: { kind: 'public' },
  response: z.object({ auth_type: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]) }),
});
