import { holdsAdminRole } from '../auth/principal.js';
import { relyingPartyFor } from '../two-factor/relying-party.js';
import type { FastifyInstance } from 'fastify';
import { samlAcs } from '@gatehouse/contracts';
import type { Handlers } from '../../http/bind-routes.js';
import { HttpError } from '../../http/errors.js';
import type { Services } from '../../services.js';

/** The largest SAML response accepted (base64 of a signed assertion with a certificate or two). */
const MAX_SAML_FORM_BYTES = 256 * 1024;

/**
 * The identity provider posts its SAML response as an HTML form (HTTP-POST binding): form bodies
 * are parsed on the ACS only, up to 256 KiB; anywhere else they get a 415. Call before binding routes.
 */
export function installSamlForm(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: MAX_SAML_FORM_BYTES },
    (request, body, done) => {
      if (request.routeOptions.config.routeId !== samlAcs.id)
        return done(new HttpError(415, 'Send JSON (Content-Type: application/json).'), undefined);
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
}

/** Handlers of the sign-in configuration, directory sign-in and single sign-on. */
export function ssoHandlers(
  s: Services,
  config: { publicUrl?: string | undefined },
): Pick<
  Handlers,
  | 'getSsoConfig'
  | 'saveSsoConfig'
  | 'testLdap'
  | 'ldapLogin'
  | 'testOidc'
  | 'startSso'
  | 'oidcCallback'
  | 'samlAcs'
  | 'samlMetadata'
  | 'ssoToken'
  | 'ssoSecondFactor'
> {
  return {
    getSsoConfig: () => s.ssoConfig.get(),
    saveSsoConfig: ({ body, principal, request }) => {
      // The sign-in configuration decides who every account is: a provider, directory or filter of
      // someone's choosing signs in as anyone, and provider groups give roles. So changing it is an
      // administrator's act (issue 14's grant guard); manage-sso-config alone reads it and tests.
      if (!holdsAdminRole(principal)) {
        request.auditNote.detail = { refused: Object.keys(body) };
        throw new HttpError(
          403,
          'Only holders of the admin role may change the sign-in configuration: it decides who every account is. ' +
            'You may read it and test connections; ask an administrator to save changes.',
        );
      }
      return s.ssoConfig.save(body);
    },
    testLdap: async ({ body }) => s.ldap.test(await s.ssoConfig.ldap(body)),
    testOidc: ({ body }) => s.oidc.test(body.well_known_url),
    ldapLogin: async ({ body, request }) => {
      request.auditNote.actor = body.email.toLowerCase();
      return { response: { user: await s.ldap.login(body.email, body.password, request.ip) } };
    },
    startSso: ({ body, principal, request, reply }) => s.ssoFlows.start(body.purpose, principal, request, reply),
    oidcCallback: ({ request, reply }) => s.ssoFlows.oidcCallback(request, reply) as never,
    samlAcs: ({ request, reply }) => s.ssoFlows.samlAcs(request, reply) as never,
    samlMetadata: async ({ reply }) =>
      reply.type('application/samlmetadata+xml').send(await s.saml.metadata()) as never,
    ssoToken: ({ request, reply }) => s.ssoFlows.token(request, reply),
    ssoSecondFactor: async ({ principal, body, request }) => {
      request.auditNote.detail = { method: body.passkey ? 'passkey' : 'code' };
      const rp = body.passkey
        ? relyingPartyFor((await s.settings.get()).public_url || config.publicUrl, request)
        : undefined;
      return s.ssoFlows.secondFactor(principal, body, request.ip, rp);
    },
  };
}
