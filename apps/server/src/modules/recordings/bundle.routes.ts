import type { FastifyInstance } from 'fastify';
import { getRecordingBundle } from '@gatehouse/contracts';
import type { Handlers } from '../../http/bind-routes.js';
import { contentDisposition } from '../../http/send-file.js';
import type { Services } from '../../services.js';
import { EvidenceBundles } from './bundle.service.js';

/**
 * Audits every bundle download (GET calls are not audited by default): an evidence bundle leaving
 * the server is worth a line in the trail, whether fetched with the token or a ticket. Call
 * before binding routes.
 */
export function installBundleAudit(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.routeId === getRecordingBundle.id && route.config) route.config.auditable = true;
  });
}

/** Handler of the evidence bundle download. */
export function bundleHandlers(s: Services): Pick<Handlers, 'getRecordingBundle'> {
  const bundles = new EvidenceBundles(s.repositories.recordings, s.sessions, () => s.gatewayKeys.keys());
  bundles.objects = s.recordingObjects;
  return {
    getRecordingBundle: async ({ principal, params, request, reply }) => {
      const bundle = await bundles.open(principal, params.id);
      request.auditNote.detail = { bytes: bundle.size };
      return reply
        .type('application/x-tar')
        .header('content-disposition', contentDisposition(bundle.fileName))
        .header('content-length', bundle.size)
        .header('cache-control', 'no-store')
        .send(bundle.stream);
    },
  };
}
