import { HttpError } from '../../http/errors.js';
import type { RelyingParty } from './webauthn.js';

/**
 * The WebAuthn relying party: the console's origin, from the public URL setting (or
 * GATEHOUSE_PUBLIC_URL) when set, else the origin the request reached (the console is served by
 * this server). Browsers bind a passkey to the host name, so a page on another origin cannot use it.
 */
export function relyingPartyFor(
  configured: string | undefined,
  request: { protocol: string; host: string },
): RelyingParty {
  const base = configured?.trim() || `${request.protocol === 'https' ? 'https' : 'http'}://${request.host}`;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new HttpError(400, 'Passkeys need the server’s address: set the public URL in Settings.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new HttpError(400, 'Passkeys need an http(s) public URL: set it in Settings.');
  return { origin: url.origin, rpId: url.hostname };
}
