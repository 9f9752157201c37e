import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

/** Handlers of the sign-in configuration and directory sign-in. */
export function ssoHandlers(s: Services): Pick<Handlers, 'getSsoConfig' | 'saveSsoConfig' | 'testLdap' | 'ldapLogin'> {
  return {
    getSsoConfig: () => s.ssoConfig.get(),
    saveSsoConfig: ({ body }) => s.ssoConfig.save(body),
    testLdap: async ({ body }) => s.ldap.test(await s.ssoConfig.ldap(body)),
    ldapLogin: async ({ body, request }) => {
      request.auditNote.actor = body.email.toLowerCase();
      return { response: { user: await s.ldap.login(body.email, body.password, request.ip) } };
    },
  };
}
