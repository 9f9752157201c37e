import type { AddressInfo } from 'node:net';
import http from 'node:http';
import Provider from 'oidc-provider';

/** A person the test provider knows, with the claims it releases. */
export interface OidcAccount {
  email: string;
  name: string;
  groups: string[];
  /** Defaults to true; null leaves the claim out altogether. */
  email_verified?: boolean | null;
}

/** A real OpenID provider (oidc-provider from npm) on loopback, with its development sign-in pages. */
export interface OidcIdp {
  issuer: string;
  wellKnownUrl: string;
  clientId: string;
  clientSecret: string;
  /**
   * Plays the browser at the provider: opens the authorization URL, signs in as `login` on the
   * provider's page, consents, and answers where the provider sends the browser back.
   */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  stop(): Promise<void>;
}

/** Cookies of one browser session at the provider. */
class Jar {
  private cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) this.cookies.set(name.trim(), value.join('='));
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** Starts the provider with one confidential client whose redirect URI is given. */
export async function startOidcIdp(
  redirectUri: string,
  accounts: Record<string, OidcAccount>,
  clientId = 'gatehouse',
  clientSecret = 'gatehouse-client-secret-for-tests',
): Promise<OidcIdp> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['test-cookie-key-one-of-many-bytes'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    findAccount: (_ctx, id) => {
      const account = accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: account.email,
          ...(account.email_verified === null ? {} : { email_verified: account.email_verified ?? true }),
          name: account.name,
          groups: account.groups,
        }),
      };
    },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => void handle(req, res));

  async function signIn(authorizationUrl: string, login: string): Promise<URL> {
    const jar = new Jar();
    let url = new URL(authorizationUrl);
    let method = 'GET';
    let body: string | undefined;
    for (let hop = 0; hop < 12; hop++) {
      const res = await fetch(url, {
        method,
        body,
        redirect: 'manual',
        headers: {
          cookie: jar.header(),
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
      });
      jar.take(res);
      const location = res.headers.get('location');
      if (location) {
        const next = new URL(location, url);
        if (next.origin !== issuer) return next;
        url = next;
        method = 'GET';
        body = undefined;
        continue;
      }
      const page = await res.text();
      if (res.status !== 200) throw new Error(`the provider answered ${res.status}: ${page.slice(0, 300)}`);
      const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
      if (!action || !prompt) throw new Error(`no sign-in form on the provider's page: ${page.slice(0, 300)}`);
      url = new URL(action.replaceAll('&amp;', '&'), url);
      method = 'POST';
      body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt }).toString();
    }
    throw new Error('the provider never sent the browser back');
  }

  return {
    issuer,
    wellKnownUrl: `${issuer}/.well-known/openid-configuration`,
    clientId,
    clientSecret,
    signIn,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
