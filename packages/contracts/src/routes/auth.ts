import { z } from 'zod';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../limits.js';
import { PERMISSIONS } from '../permissions.js';
import { MessageBody, defineRoute } from '../route.js';
import { PasskeyProof, SecondFactorCode } from './two-factor-parts.js';

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
    second_factor: z
      .array(z.enum(['totp', 'passkey', 'recovery-code']))
      .optional()
      .describe(
        'Present when the password was right and a second factor must follow: the token only answers ' +
          'POST /api/auth/second-factor (and its passkey options) for 5 minutes; these are the ways the user has',
      ),
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
  beforeSecondFactor: 'enrol',
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
  .object({
    method: z.string(),
    path: z
      .string()
      .describe(
        'Regular expression matched against the route catalogue: the path templates GET /api/openapi.json lists, ' +
          'such as /api/role/{name}; it selects routes, whatever URL encoding a request uses',
      ),
  })
  .meta({ id: 'LimitedEndpoint' });

/** A limited endpoint as an administrator enters it: the method and a regular expression that compiles. */
export const LimitedEndpointInput = z.strictObject({
  method: z
    .string({ error: 'method is required' })
    .trim()
    .toUpperCase()
    .pipe(z.enum(['GET', 'POST', 'PUT', 'DELETE', '*'], { error: 'method must be GET, POST, PUT, DELETE or *' })),
  path: z
    .string({ error: 'path is a regular expression' })
    .min(1, 'path is a regular expression, such as ^/api/user')
    .max(500, 'path is at most 500 characters')
    .superRefine((value, ctx) => {
      try {
        new RegExp(value);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `The path ${value} is not a valid regular expression: ${(error as Error).message}`,
        });
      }
    }),
});

/** Seconds a token counts as fresh after it was issued (re-authorization). */
export const FRESH_TOKEN_SECONDS = 300;
/** Seconds a one-shot token lives. */
export const ONESHOT_TOKEN_SECONDS = 120;

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
  beforeSecondFactor: 'enrol',
  response: SecuritySettings,
});

export const saveSecurity = defineRoute({
  id: 'security.save',
  method: 'POST',
  path: '/api/security',
  tag: 'auth',
  summary:
    'Change the security settings. Needs fresh authentication: a one-shot token or a token issued in the last ' +
    `${FRESH_TOKEN_SECONDS / 60} minutes (POST /api/auth/authorize). A limited endpoint gets a 400 saying why when its path is not a valid regular ` +
    'expression, could backtrack super-linearly (nested repetition), takes too long to match the route catalogue, ' +
    'or selects no route of the catalogue (GET /api/openapi.json).',
  access: { kind: 'permissions', anyOf: ['manage-settings'] },
  fresh: true,
  body: z.strictObject({
    api_limit_single_use: z.boolean({ error: 'api_limit_single_use must be true or false' }).optional(),
    api_limit_freshness: z.boolean({ error: 'api_limit_freshness must be true or false' }).optional(),
    api_limit_endpoints: z
      .array(LimitedEndpointInput, { error: 'api_limit_endpoints must be a list of {method, path}' })
      .max(100, 'at most 100 limited endpoints')
      .optional(),
    effectiveTokenMaxAge: z
      .number({ error: 'effectiveTokenMaxAge must be seconds' })
      .int('effectiveTokenMaxAge must be whole seconds')
      .min(300, 'effectiveTokenMaxAge must be at least 300 seconds')
      .max(30 * 86_400, 'effectiveTokenMaxAge must be at most 30 days')
      .optional(),
  }),
  response: z.object({ message: z.string(), security: SecuritySettings }),
  errors: { 401: 'Fresh authentication needed (reauth in the body)' },
});

export const authorize = defineRoute({
  id: 'auth.authorize',
  method: 'POST',
  path: '/api/auth/authorize',
  tag: 'auth',
  summary:
    'Re-authorize with the password. With single-use on, answers a one-shot token (kind oneshot) to send once in ' +
    `Authentication-Token within ${ONESHOT_TOKEN_SECONDS} s; otherwise a new session token (kind session) that replaces ` +
    'the one making the call (which is revoked). Someone with a second factor sends it too: code (app or recovery ' +
    'code) or passkey (an answer to POST /api/auth/second-factor/options); without it the 401 says two_factor verify.',
  access: { kind: 'signed-in' },
  beforeSecondFactor: 'enrol',
  body: z.strictObject({
    password: z.string({ error: 'password is required' }).min(1, 'Enter your password').max(1024),
    code: SecondFactorCode.optional(),
    passkey: PasskeyProof.optional(),
  }),
  response: z.object({
    token: z.string(),
    kind: z.enum(['oneshot', 'session']),
    expires_at: z.string(),
  }),
  errors: { 401: 'Wrong password', 429: 'Too many attempts' },
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
