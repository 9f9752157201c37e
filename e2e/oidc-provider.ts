import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** Someone the provider signs in, with the groups it releases as the `groups` claim. */
export interface ProviderAccount {
  email: string;
  name: string;
  groups: string[];
}

/**
 * A real OpenID provider (oidc-provider from npm) on loopback with its development sign-in pages,
 * for the browser to go through. (apps/server/src/test/oidc-idp.ts starts the same provider for the
 * server's tests, which drive its pages over HTTP instead of with a browser.)
 */
export async function startProvider(redirectUris: string | string[], accounts: Record<string, ProviderAccount>) {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = { client_id: 'gatehouse-e2e', client_secret: 'gatehouse-e2e-client-secret' };
  const provider = new Provider(issuer, {
    clients: [
      {
        ...client,
        redirect_uris: [redirectUris].flat(),
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['e2e-cookie-key-of-enough-length'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    findAccount: (_ctx, id) => {
      const account = accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: account.email,
          email_verified: true,
          name: account.name,
          groups: account.groups,
        }),
      };
    },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => void handle(req, res));
  return {
    issuer,
    wellKnownUrl: `${issuer}/.well-known/openid-configuration`,
    ...client,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
