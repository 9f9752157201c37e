import * as client from 'openid-client';
import { HttpError } from '../../http/errors.js';
import type { ExternalIdentity } from './external-accounts.js';
import type { OidcSettings, SsoConfigService } from './sso-config.service.js';

/** Plain HTTP is accepted only for a provider on this machine (tests, a local provider). */
function isLoopback(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

function parseUrl(value: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new HttpError(400, 'The OpenID Connect well_known_url is not a URL: set it in Settings → Single sign-on.');
  }
}

/**
 * A provider's refusal in our words: the OAuth error code (a registered token such as access_denied),
 * never the provider's free text, and nothing of a failed connection (issue 14: a test must not echo
 * a foreign server's words, nor tell a closed port from a silent one or another service).
 */
function describe(error: unknown): string {
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError) {
    const code = /^[\x20-\x7e]{1,64}$/.test(error.error) ? error.error : 'an unreadable error';
    return `the provider answered ${code}`;
  }
  const e = error as { message?: string; cause?: { message?: string; claim?: string } };
  const text = [e.message, e.cause?.message, e.cause?.claim].filter(Boolean).join(' ');
  if (/nonce/i.test(text)) return 'the answer did not match this sign-in (nonce)';
  if (/state/i.test(text)) return 'the answer did not match this sign-in (state)';
  return 'its answer could not be checked';
}

/** A failed discovery: whatever went wrong, one message that names the address only. */
const unreadable = (url: string) =>
  `Could not read an OpenID provider's discovery document at ${url}: nothing answered there, or what answered is ` +
  'not an OpenID provider. Check the well-known URL.';

function stringList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

/**
 * OpenID Connect sign-in (auth type 3): the authorization code flow with PKCE (S256), state and
 * nonce, configured from the provider's discovery document (openid-client). Discovered
 * configurations are cached for five minutes per instance; nothing a later request needs is kept
 * here (the flow's secrets live in the database).
 */
export class OidcService {
  private cache = new Map<string, { at: number; config: Promise<client.Configuration> }>();

  constructor(private readonly settings: SsoConfigService) {}

  private async configuration(s: OidcSettings): Promise<client.Configuration> {
    if (!s.wellKnownUrl || !s.clientId)
      throw new HttpError(
        400,
        'OpenID Connect is not set up: enter the well-known URL and client id in Settings → Single sign-on.',
      );
    const key = `${s.wellKnownUrl}\n${s.clientId}\n${s.clientSecret}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < 5 * 60_000) return hit.config;
    const config = this.discover(s.wellKnownUrl, s.clientId, s.clientSecret);
    this.cache.set(key, { at: Date.now(), config });
    config.catch(() => this.cache.delete(key));
    return config;
  }

  private discover(wellKnownUrl: string, clientId: string, clientSecret: string): Promise<client.Configuration> {
    const url = parseUrl(wellKnownUrl);
    if (url.protocol === 'http:' && !isLoopback(url))
      throw new HttpError(400, 'The OpenID provider must be reached over https (plain http only on this machine).');
    return client.discovery(
      url,
      clientId,
      undefined,
      clientSecret ? client.ClientSecretBasic(clientSecret) : client.None(),
      url.protocol === 'http:' ? { execute: [client.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
    );
  }

  /** Fetches the discovery document and says whether it is usable, in words. */
  async test(wellKnownUrl?: string) {
    const s = await this.settings.oidc();
    const url = wellKnownUrl ?? s.wellKnownUrl;
    if (!url) return { ok: false, message: 'Enter the well-known URL first.' };
    try {
      const config = await this.discover(url, s.clientId || 'gatehouse-test', '');
      const meta = config.serverMetadata();
      const missing = (['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const).filter((k) => !meta[k]);
      // What answered is not a provider: the same words as when nothing answers (no port scanner).
      if (missing.length) return { ok: false, message: unreadable(url) };
      if (!meta.supportsPKCE())
        return { ok: false, message: 'The provider does not announce PKCE with S256, which Gatehouse requires.' };
      return { ok: true, message: `Found the OpenID provider ${meta.issuer}.`, issuer: meta.issuer };
    } catch (error) {
      if (error instanceof HttpError) return { ok: false, message: error.message };
      return { ok: false, message: unreadable(url) };
    }
  }

  /** The provider address to send the browser to, and the secrets the callback will check. */
  async begin(state: string, redirectUri: string) {
    const s = await this.settings.oidc();
    const config = await this.configuration(s).catch((error: unknown) => {
      if (error instanceof HttpError) throw error;
      throw new HttpError(502, `Single sign-on is unavailable. ${unreadable(s.wellKnownUrl)} (Tell an administrator.)`);
    });
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: s.scope || 'openid profile email',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { redirectUrl: url.href, data: { verifier, nonce } };
  }

  /**
   * Checks the provider's answer (state, code exchanged with the PKCE verifier, ID token
   * signature, audience, issuer, expiry and nonce) and says who signed in.
   */
  async complete(currentUrl: URL, state: string, data: Record<string, string>): Promise<ExternalIdentity> {
    const s = await this.settings.oidc();
    const config = await this.configuration(s);
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: data.verifier,
        expectedState: state,
        expectedNonce: data.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      const text = describe(error);
      if (/nonce/i.test(text))
        throw new HttpError(401, 'The identity provider’s answer did not match this sign-in (nonce). Sign in again.');
      throw new HttpError(401, `The identity provider’s answer was refused: ${text}. Sign in again.`);
    }
    const claims = tokens.claims();
    if (!claims) throw new HttpError(401, 'The identity provider sent no ID token.');
    let profile: Record<string, unknown> = { ...claims };
    if (typeof profile.email !== 'string') {
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub).catch(() => undefined);
      if (info) profile = { ...info, ...profile, email: info.email };
    }
    const email = profile.email;
    if (typeof email !== 'string' || !email.includes('@'))
      throw new HttpError(
        401,
        'The identity provider did not give an email address: allow the email scope for Gatehouse there.',
      );
    // Only an address the provider vouches for: a missing email_verified is refused like false, since
    // an account here would otherwise go to whoever typed that address at the provider.
    if (profile.email_verified !== true && profile.email_verified !== 'true')
      throw new HttpError(
        401,
        profile.email_verified === undefined
          ? `The identity provider did not say that ${email} is verified (email_verified): have it send that claim, with the address verified there.`
          : `The identity provider says ${email} is not verified: verify it there first.`,
      );
    const name = typeof profile.name === 'string' ? profile.name : null;
    return { email, name, groups: [...stringList(profile.groups), ...stringList(profile.roles)] };
  }
}
