import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

/**
 * The key that signs recordings (GET /api/signing-key): holders of list-recording (auditors, who
 * check recordings with its fingerprint) or manage-settings (who choose where it is kept). It is
 * public key material only: the private key never leaves the server.
 */
export function signingKeyHandlers(s: Services): Pick<Handlers, 'getSigningKey'> {
  return {
    getSigningKey: async () => {
      const keys = await s.gatewayKeys.keys();
      const known = await s.gatewayKeys.knownSigningKeys();
      return {
        fingerprint: keys.signingFingerprint,
        public_key: keys.signingPublicKey,
        source: keys.signingSource,
        with_data: keys.signingKeyWithData,
        earlier_keys: known
          .filter((k) => k.fingerprint !== keys.signingFingerprint && k.retiredAt)
          .sort((a, b) => b.retiredAt!.getTime() - a.retiredAt!.getTime())
          .map((k) => ({
            fingerprint: k.fingerprint,
            source: k.source,
            first_used_at: k.firstUsedAt.toISOString(),
            retired_at: k.retiredAt!.toISOString(),
          })),
      };
    },
  };
}
