import Fastify, { type FastifyInstance } from 'fastify';
import { MAX_JSON_BODY_BYTES } from '@gatehouse/contracts';
import type { Config } from './config.js';
import { installAuditHook } from './http/audit-hook.js';
import { agentInstallHandlers } from './modules/agent-install/agent-install.routes.js';
import { bindRoutes, type Handlers } from './http/bind-routes.js';
import { installConsole } from './http/console.js';
import { installErrorHandler } from './http/errors.js';
import { agentHandlers } from './modules/agents/agents.routes.js';
import { apiKeyHandlers } from './modules/apikeys/apikeys.routes.js';
import { auditHandlers, installAuditExportAudit } from './modules/audit/audit.routes.js';
import { authHandlers } from './modules/auth/auth.routes.js';
import { relyingPartyFor } from './modules/two-factor/relying-party.js';
import { twoFactorHandlers } from './modules/two-factor/two-factor.routes.js';
import { groupHandlers } from './modules/groups/groups.routes.js';
import { licenseHandlers } from './modules/license/license.routes.js';
import { mailHandlers } from './modules/mail/mail.routes.js';
import { installSamlForm, ssoHandlers } from './modules/sso/sso.routes.js';
import { legalHoldHandlers } from './modules/recordings/legal-hold.routes.js';
import { recordingSearchHandlers } from './modules/recordings/recording-search.routes.js';
import { recordingHandlers } from './modules/recordings/recordings.routes.js';
import { signingKeyHandlers } from './modules/recordings/signing-key.routes.js';
import { installVideoUpload, videoHandlers } from './modules/recordings/video.routes.js';
import { bundleHandlers, installBundleAudit } from './modules/recordings/bundle.routes.js';
import { roleHandlers } from './modules/roles/roles.routes.js';
import { settingsHandlers } from './modules/settings/settings.routes.js';
import { systemHandlers } from './modules/system/system.routes.js';
import { tunnelHandlers } from './modules/tunnels/tunnels.routes.js';
import { userHandlers } from './modules/users/users.routes.js';
import { type MyAccessConfig, myAccessHandlers } from './modules/my-access/my-access.routes.js';
import type { Services } from './services.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** 'METHOD /path' of every route registered, in registration order. */
    servedRoutes: readonly string[];
  }
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
};

/** Builds the HTTP server: security headers, error mapping, audit, every contract route, the console. */
export async function buildApp(
  config: Pick<Config, 'buildTag' | 'webDir' | 'trustProxy'> & MyAccessConfig,
  services: Services,
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: services.log,
    bodyLimit: MAX_JSON_BODY_BYTES,
    trustProxy: config.trustProxy,
    // Bodies with duplicate or prototype keys are refused rather than merged.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(SECURITY_HEADERS);
    if (/^\/(api|sso|saml|ldap)(\/|\?|$)/.test(request.url)) reply.header('cache-control', 'no-store');
    return payload;
  });
  // Every route the server serves, so a test can prove each /api route is declared in the contracts.
  const served: string[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) served.push(`${method} ${route.url}`);
  });
  app.decorate('servedRoutes', served);
  installErrorHandler(app, services.database.health);
  installAuditHook(app, services.repositories.audit);
  installVideoUpload(app);
  installBundleAudit(app);
  installAuditExportAudit(app);
  installSamlForm(app);
  const handlers: Handlers = {
    ...authHandlers(services.auth, services.security, services.repositories.settings, async (request) =>
      relyingPartyFor((await services.settings.get()).public_url || config.publicUrl, request),
    ),
    ...twoFactorHandlers(services, config),
    ...systemHandlers(services, config.buildTag),
    ...auditHandlers(services),
    ...userHandlers(services),
    ...myAccessHandlers(services, config),
    ...roleHandlers(services),
    ...groupHandlers(services),
    ...apiKeyHandlers(services),
    ...settingsHandlers(services),
    ...mailHandlers(services),
    ...agentHandlers(services),
    ...agentInstallHandlers(services, config),
    ...tunnelHandlers(services),
    ...recordingHandlers(services),
    ...recordingSearchHandlers(services),
    ...legalHoldHandlers(services),
    ...signingKeyHandlers(services),
    ...videoHandlers(services),
    ...bundleHandlers(services),
    ...licenseHandlers(services),
    ...ssoHandlers(services, config),
  };
  bindRoutes(app, handlers, services.gatekeeper);
  await installConsole(app, config.webDir);
  return app;
}
