import { effectivePermissions } from '@gatehouse/contracts';
import type { FastifyRequest } from 'fastify';
import type { Handlers } from '../../http/bind-routes.js';
import type { SecurityService } from '../settings/security.service.js';
import type { SettingsRepository } from '../settings/settings.repository.js';
import type { RelyingParty } from '../two-factor/webauthn.js';
import type { AuthService } from './auth.service.js';

type AuthHandlers = Pick<
  Handlers,
  'login' | 'logout' | 'me' | 'changePassword' | 'security' | 'saveSecurity' | 'authorize' | 'ssoProvider'
>;

/** Handlers of the sign-in calls. */
export function authHandlers(
  auth: AuthService,
  security: SecurityService,
  settings: SettingsRepository,
  /** The WebAuthn relying party of a request (a passkey may prove the second factor of a re-authorization). */
  relyingParty: (request: FastifyRequest) => Promise<RelyingParty>,
): AuthHandlers {
  return {
    login: async ({ body, request }) => {
      request.auditNote.actor = body.email.toLowerCase();
      // With a directory or single sign-on configured, passwords remain only for administrators
      // (break-glass, the console's force-standard-login); AuthService.login refuses the others
      // with the one sign-in refusal, after checking the password, so nothing tells them apart.
      const user = await auth.login(body.email, body.password, request.ip);
      return { response: { user } };
    },
    logout: async ({ token, principal }) => {
      await auth.logout(token);
      return { message: principal ? 'You have been logged out' : 'No session to end' };
    },
    me: async ({ principal }) => ({
      user: {
        email: principal.email,
        name: principal.name,
        roles: principal.roles,
        effectivePermissions: effectivePermissions(principal.roles),
      },
    }),
    changePassword: async ({ principal, body, request }) => auth.changePassword(principal, body, request.ip),
    security: async () => security.get(),
    saveSecurity: ({ body }) => security.save(body),
    authorize: async ({ principal, body, request }) =>
      auth.authorize(principal, body, request.ip, body.passkey ? await relyingParty(request) : undefined),
    ssoProvider: async () => {
      const stored = (await settings.get('auth')) as { auth_type?: unknown } | undefined;
      const authType = stored?.auth_type;
      return { auth_type: authType === 2 || authType === 3 || authType === 4 ? authType : 1 };
    },
  };
}
