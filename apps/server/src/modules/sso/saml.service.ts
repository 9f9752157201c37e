import { HttpError } from '../../http/errors.js';
import type { ExternalIdentity } from './external-accounts.js';
import type { SsoConfigService } from './sso-config.service.js';
import type { SamlDriver } from './sso-flow.service.js';

/** SAML sign-in (auth type 2) with @node-saml/node-saml. IN PROGRESS (session 3): being written. */
export class SamlService implements SamlDriver {
  constructor(private readonly settings: SsoConfigService) {}

  begin(_relayState: string): Promise<{ redirectUrl: string; data: Record<string, string> }> {
    return Promise.reject(new HttpError(400, 'SAML sign-in is not available yet.'));
  }

  complete(
    _samlResponse: string,
    _data: Record<string, string>,
  ): Promise<ExternalIdentity & { assertionId: string; validUntil: Date }> {
    return Promise.reject(new HttpError(400, 'SAML sign-in is not available yet.'));
  }

  async metadata(): Promise<string> {
    await this.settings.saml();
    throw new HttpError(400, 'SAML metadata is not available yet.');
  }
}
