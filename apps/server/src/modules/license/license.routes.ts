import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

/** Handlers of the licence, the ingress certificate and the versions. */
export function licenseHandlers(
  s: Services,
): Pick<Handlers, 'getLicense' | 'saveLicense' | 'getIngressTls' | 'saveIngressTls' | 'getVersions' | 'saveVersion'> {
  return {
    getLicense: () => s.license.get(),
    saveLicense: ({ body }) => s.license.save(body.license),
    getIngressTls: () => s.ingressTls.describe(),
    saveIngressTls: ({ body }) => s.ingressTls.save(body.certificate, body.private_key),
    getVersions: () => s.versions.get(),
    saveVersion: ({ body }) => s.versions.setDesiredAgentVersion(body.agent_version, body.image_tag),
  };
}
