import { verify } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../http/errors.js';
import { ADMIN, DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import {
  type KeyPair,
  type ReceivedRequest,
  type ResponseOptions,
  TestSamlIdp,
  makeKeyPair,
} from '../../test/saml-idp.js';
import { codeFor, enrolTotp, forgetLastStep } from '../../test/two-factor.js';
import { ADMIN_NOT_MAPPED } from './external-accounts.js';
import { SamlService } from './saml.service.js';

type SsoToken = {
  purpose: string;
  kind: string;
  response: { user: { email: string; name: string | null; roles: { name: string }[]; authentication_token: string } };
};
type Acs = { status: number; location: string; done: string | undefined; error: string | undefined };

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const pemBody = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');

describe.each(DATABASES)('SAML single sign-on against an in-test identity provider on %s', (kind) => {
  let server: TestServer;
  let idp: TestSamlIdp;
  let impostor: KeyPair;
  let spKeys: KeyPair;
  let base: string;
  let acsUrl: string;
  let entityId: string;
  let danaToken: string;

  beforeAll(async () => {
    [idp, impostor, spKeys] = await Promise.all([
      TestSamlIdp.create(),
      makeKeyPair('impostor.example.test'),
      makeKeyPair('gatehouse-sp.example.test'),
    ]);
    server = await startTestServer(kind);
    await server.services.repositories.roles.ensure('auditor', ['list-recording'], false);
    const config = await server.call<{ callback_urls: { saml_acs_url: string; saml_metadata_url: string } }>(
      'GET',
      '/sso/config',
      { token: await server.login() },
    );
    acsUrl = config.body.callback_urls.saml_acs_url;
    entityId = config.body.callback_urls.saml_metadata_url;
    base = acsUrl.replace(/\/saml\/acs$/, '');
  }, 120_000);
  afterAll(async () => server?.stop());

  /** Saves sign-in settings with a freshly issued administrator token. */
  const saveConfig = async (body: unknown) => {
    const res = await server.call('POST', '/sso/config', { token: await server.login(), body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res;
  };
  const startRaw = (purpose: string, token?: string) =>
    server.call<{ redirect_url: string; message?: string }>('POST', '/sso/start', { token, body: { purpose } });
  const start = async (purpose = 'signin', token?: string): Promise<ReceivedRequest> => {
    const res = await startRaw(purpose, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return idp.readRequest(res.body.redirect_url);
  };
  const answer = (request: ReceivedRequest, options: Partial<ResponseOptions> & { nameId: string }) =>
    idp.respond({ inResponseTo: request.id, audience: entityId, recipient: acsUrl, ...options });
  const post = async (SAMLResponse: string, RelayState: string): Promise<Acs> => {
    const res = await server.call('POST', '/saml/acs', {
      rawBody: new URLSearchParams({ SAMLResponse, RelayState }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const location = res.headers.get('location') ?? '';
    const done = res.headers
      .getSetCookie()
      .map((c) => /^gh_sso_done=([^;]+)/.exec(c)?.[1])
      .find(Boolean);
    const error = location.includes('?error=') ? decodeURIComponent(location.split('?error=')[1] ?? '') : undefined;
    return { status: res.status, location, done, error };
  };
  const ssoToken = (done: string) =>
    server.call<SsoToken>('GET', '/sso/token', { headers: { cookie: `gh_sso_done=${encodeURIComponent(done)}` } });
  /** A whole sign-in: start, the IdP's signed answer, the ACS, the hand-off. */
  const signIn = async (options: Partial<ResponseOptions> & { nameId: string }, purpose = 'signin', token?: string) => {
    const request = await start(purpose, token);
    const acs = await post(answer(request, options), request.relayState);
    expect(acs.error).toBeUndefined();
    expect(acs.location).toBe(`${base}/#/sso`);
    expect(acs.done).toBeTruthy();
    const res = await ssoToken(acs.done ?? '');
    expect(res.status).toBe(200);
    return res.body;
  };

  it('refuses to start until the identity provider’s sign-on URL and certificate are set', async () => {
    await saveConfig({ auth_type: 2 });
    const bare = await startRaw('signin');
    expect(bare.status).toBe(400);
    expect(bare.body.message).toBe(
      "SAML is not set up: enter the identity provider's sign-on URL and certificate in Settings → Single sign-on.",
    );
    await saveConfig({
      saml_config: { idp: { singleSignOnService: { url: idp.ssoUrl }, x509cert: 'not a certificate' } },
    });
    const broken = await startRaw('signin');
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/certificate .* is not an X\.509 certificate/);
    // The certificate as many IdPs show it: the base64 body without PEM lines.
    await saveConfig({ saml_config: { idp: { entityId: idp.entityId, x509cert: pemBody(idp.cert) } } });
    expect((await startRaw('signin')).status).toBe(200);
  });

  it('sends the browser to the identity provider with an AuthnRequest naming this server', async () => {
    const res = await startRaw('signin');
    expect(res.headers.getSetCookie().some((c) => c.startsWith('gh_sso_flow='))).toBe(true);
    const request = idp.readRequest(res.body.redirect_url);
    expect(request.id).toMatch(/^_[0-9a-f]{40}$/);
    expect(request.issuer).toBe(entityId);
    expect(request.acsUrl).toBe(acsUrl);
    expect(request.destination).toBe(idp.ssoUrl);
    expect(request.nameIdFormat).toBe(EMAIL_FORMAT);
    expect(request.relayState.length).toBeGreaterThan(20);
    expect(request.signature).toBeUndefined();
  });

  it('signs a user in from a signed assertion, with the role a directory group names, once', async () => {
    const request = await start();
    const acs = await post(
      answer(request, {
        nameId: 'dana@example.test',
        attributes: { displayName: ['Dana Saml'], groups: ['auditor', 'not-a-role'] },
      }),
      request.relayState,
    );
    expect(acs.status).toBe(303);
    expect(acs.location).toBe(`${base}/#/sso`);
    expect(acs.done).toBeTruthy();
    const res = await ssoToken(acs.done ?? '');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ purpose: 'signin', kind: 'session' });
    const user = res.body.response.user;
    expect(user.email).toBe('dana@example.test');
    expect(user.roles.map((r) => r.name).sort()).toEqual(['auditor', 'user']);
    danaToken = user.authentication_token;
    const me = await server.call<{ user: { name: string } }>('GET', '/api/user/me', { token: danaToken });
    expect(me.status).toBe(200);
    expect(me.body.user.name).toBe('Dana Saml');
    // The hand-off is used up.
    expect((await ssoToken(acs.done ?? '')).status).toBe(401);
  });

  it('takes the email from a claim when the NameID is opaque, and groups from memberOf DNs', async () => {
    const body = await signIn({
      nameId: 'a81f-opaque',
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      attributes: {
        'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress': ['Eli@Example.test'],
        memberOf: ['cn=auditor,ou=groups,dc=example,dc=test'],
      },
      signResponse: true,
    });
    expect(body.response.user.email).toBe('eli@example.test');
    expect(body.response.user.roles.map((r) => r.name).sort()).toEqual(['auditor', 'user']);
  });

  /** A refused case: the NameID it signs in, what the IdP does differently, and the message. */
  type Refusal = [string, string, () => Partial<ResponseOptions>, RegExp];
  const refusals: Refusal[] = [
    [
      'an unsigned assertion',
      'unsigned@example.test',
      () => ({ signAssertion: false }),
      /^The SAML response is not signed:/,
    ],
    [
      'an assertion changed after signing',
      'altered@example.test',
      () => ({ tamper: (xml) => xml.replace('altered@example.test', ADMIN.email) }),
      /^The SAML response's signature is not valid/,
    ],
    [
      'an expired assertion',
      'expired@example.test',
      () => ({ notOnOrAfter: new Date(Date.now() - 60_000) }),
      /^The SAML assertion has expired/,
    ],
    [
      'an assertion for another audience',
      'audience@example.test',
      () => ({ audience: 'https://other-sp.example.test' }),
      /^The SAML assertion is for another audience \(https:\/\/other-sp\.example\.test\)/,
    ],
    [
      'a response to another request',
      'inresponseto@example.test',
      () => ({ inResponseTo: '_not-this-request' }),
      /^The SAML response does not answer this sign-in \(InResponseTo\)/,
    ],
    [
      'a SHA-1 signature',
      'sha1@example.test',
      () => ({ algorithm: 'sha1' }),
      /^The SAML response is signed with SHA-1 .*refused/,
    ],
    [
      'a signature by another key',
      'impostor@example.test',
      () => ({ signingKey: impostor }),
      /^The SAML response's signature is not valid/,
    ],
    [
      'an assertion for another recipient',
      'recipient@example.test',
      () => ({ recipient: 'https://elsewhere.example.test/saml/acs', destination: acsUrl }),
      /^The SAML assertion is for the recipient https:\/\/elsewhere\.example\.test\/saml\/acs/,
    ],
    [
      'a response addressed elsewhere',
      'destination@example.test',
      () => ({ destination: 'https://elsewhere.example.test/saml/acs' }),
      /^The SAML response is addressed to https:\/\/elsewhere/,
    ],
    [
      'an assertion from another issuer',
      'issuer@example.test',
      () => ({ issuer: 'https://rogue-idp.example.test' }),
      /^The SAML assertion comes from https:\/\/rogue-idp\.example\.test/,
    ],
    [
      'a signed response around an unsigned assertion (strict)',
      'wrapped@example.test',
      () => ({ signAssertion: false, signResponse: true }),
      /^The SAML response is not signed where it must be/,
    ],
  ];

  it.each(refusals)('refuses %s, with no account and no token', async (_name, nameId, options, message) => {
    const request = await start();
    const acs = await post(answer(request, { nameId, ...options() }), request.relayState);
    expect(acs.status).toBe(303);
    expect(acs.location.startsWith(`${base}/#/sso?error=`)).toBe(true);
    expect(acs.error).toMatch(message);
    expect(acs.done).toBeUndefined();
    expect(await server.services.repositories.users.findByEmail(nameId)).toBeUndefined();
  });

  it("an assertion naming the break-glass admin's email does not sign in as that admin", async () => {
    const request = await start();
    const acs = await post(
      answer(request, { nameId: ADMIN.email, attributes: { groups: ['admin'] } }),
      request.relayState,
    );
    expect(acs.done).toBeUndefined();
    expect(acs.error).toBe(ADMIN_NOT_MAPPED);
    // And a SAML group named admin gives a new account nothing either.
    const eve = await signIn({ nameId: 'eve@example.test', attributes: { groups: ['admin'] } });
    expect(eve.response.user.roles.map((r) => r.name)).toEqual(['user']);
  });

  it('refuses a replayed response, in the same flow and in a new one', async () => {
    const request = await start();
    const response = answer(request, { nameId: 'rita@example.test' });
    const first = await post(response, request.relayState);
    expect(first.done).toBeTruthy();
    const again = await post(response, request.relayState);
    expect(again.error).toMatch(/already used/);
    expect(again.done).toBeUndefined();
    const other = await start();
    const elsewhere = await post(response, other.relayState);
    expect(elsewhere.error).toMatch(/InResponseTo/);
    expect(elsewhere.done).toBeUndefined();
  });

  it('accepts SHA-1 only while rejectDeprecatedAlgorithm is off', async () => {
    await saveConfig({ saml_config: { security: { rejectDeprecatedAlgorithm: false } } });
    const body = await signIn({ nameId: 'legacy@example.test', algorithm: 'sha1' });
    expect(body.response.user.email).toBe('legacy@example.test');
    await saveConfig({ saml_config: { security: { rejectDeprecatedAlgorithm: true } } });
    const request = await start();
    const refused = await post(
      answer(request, { nameId: 'legacy@example.test', algorithm: 'sha1' }),
      request.relayState,
    );
    expect(refused.error).toMatch(/SHA-1/);
  });

  it('with debug on, logs why a response was refused', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const saml = new SamlService(server.services.ssoConfig, pino({ level: 'info' }, sink));
    const refuse = async () => {
      const begun = await saml.begin('relay-for-debug');
      const request = idp.readRequest(begun.redirectUrl);
      const error = await saml
        .complete(answer(request, { nameId: 'debug@example.test', signingKey: impostor }), begun.data)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(401);
    };
    await refuse();
    expect(lines).toEqual([]);
    await saveConfig({ saml_config: { debug: true } });
    await refuse();
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      expect.objectContaining({
        msg: 'SAML response refused',
        reason: 'Invalid signature',
        refused: expect.stringMatching(/^The SAML response's signature is not valid/) as unknown,
      }),
    ]);
    await saveConfig({ saml_config: { debug: false } });
  });

  it('re-authorizes the signed-in user with a one-shot token, and refuses another IdP user', async () => {
    const saveSecurity = async (body: unknown) =>
      expect((await server.call('POST', '/api/security', { token: await server.login(), body })).status).toBe(200);
    await saveSecurity({
      api_limit_single_use: true,
      api_limit_endpoints: [{ method: 'GET', path: '^/api/user/me$' }],
    });
    try {
      // The settings are read again within two seconds of a change.
      await new Promise((r) => setTimeout(r, 2100));
      const limited = await server.call<{ reauth?: string }>('GET', '/api/user/me', { token: danaToken });
      expect(limited.status).toBe(401);
      expect(limited.body.reauth).toBe('single-use');
      expect((await startRaw('authorize')).status).toBe(401);

      const body = await signIn({ nameId: 'dana@example.test' }, 'authorize', danaToken);
      expect(body).toMatchObject({ purpose: 'authorize', kind: 'oneshot' });
      const oneShot = body.response.user.authentication_token;
      expect(oneShot).not.toBe(danaToken);
      expect((await server.call('GET', '/api/user/me', { token: oneShot })).status).toBe(200);
      expect((await server.call('GET', '/api/user/me', { token: oneShot })).status).toBe(401);

      const request = await start('authorize', danaToken);
      const acs = await post(answer(request, { nameId: 'eli@example.test' }), request.relayState);
      expect(acs.error).toMatch(/signed in at the identity provider as eli@example\.test.*dana@example\.test/);
      expect(acs.done).toBeUndefined();
    } finally {
      await saveSecurity({ api_limit_single_use: false, api_limit_endpoints: [] });
    }
  });

  it('re-authorizes a SAML user with an authenticator app: the identity provider, then the code, once', async () => {
    const signedIn = await signIn({ nameId: 'gil@example.test', attributes: { displayName: ['Gil Saml'] } });
    const session = signedIn.response.user.authentication_token;
    const { secret } = await enrolTotp(server, session);
    await forgetLastStep(server, 'gil@example.test');

    // The assertion alone proves one factor: GET /sso/token answers the step, not a token.
    const answered = (await signIn({ nameId: 'gil@example.test' }, 'authorize', session)) as unknown as {
      purpose: string;
      kind: string;
      response?: unknown;
      second_factor: { step: string; methods: string[] };
    };
    expect(answered).toMatchObject({ purpose: 'authorize', kind: 'second-factor' });
    expect(answered.response).toBeUndefined();
    expect(answered.second_factor.methods).toEqual(['totp', 'recovery-code']);
    const finish = (code: string) =>
      server.call<{ token: string; kind: string }>('POST', '/sso/second-factor', {
        token: session,
        body: { step: answered.second_factor.step, code },
      });
    const right = codeFor(secret);
    expect((await finish(String((Number(right) + 500_000) % 1_000_000).padStart(6, '0'))).status).toBe(401);
    const granted = await finish(right);
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body.kind).toBe('session');
    expect((await server.call('GET', '/api/user/me', { token: granted.body.token })).status).toBe(200);
    expect((await server.call('GET', '/api/user/me', { token: session })).status).toBe(401);
    // The step is used up.
    await forgetLastStep(server, 'gil@example.test');
    expect((await finish(codeFor(secret))).status).toBe(401);
  });

  it('publishes SP metadata, and signs AuthnRequests with the stored key when asked', async () => {
    const plain = await server.call<string>('GET', '/saml/metadata');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    expect(plain.body).toContain(`entityID="${entityId}"`);
    expect(plain.body).toMatch(
      new RegExp(
        `<AssertionConsumerService [^>]*Binding="urn:oasis:names:tc:SAML:2\\.0:bindings:HTTP-POST" Location="${acsUrl}"`,
      ),
    );
    expect(plain.body).toContain(`<NameIDFormat>${EMAIL_FORMAT}</NameIDFormat>`);
    expect(plain.body).toContain('WantAssertionsSigned="true"');
    expect(plain.body).not.toContain('Organization');

    await saveConfig({
      saml_config: {
        sp: { x509cert: spKeys.cert, privateKey: spKeys.key },
        organization: { name: 'Example Corp', url: 'https://example.test' },
        contactPerson: { technical: { givenName: 'Tess', emailAddress: 'tess@example.test' } },
      },
    });
    const full = await server.call<string>('GET', '/saml/metadata');
    expect(full.body).toContain('AuthnRequestsSigned="false"');
    expect((await start()).signature).toBeUndefined();
    expect(full.body.replace(/\s+/g, '')).toContain(pemBody(spKeys.cert));
    expect(full.body).toMatch(/<OrganizationName xml:lang="en">Example Corp<\/OrganizationName>/);
    expect(full.body).toMatch(/<ContactPerson contactType="technical">\s*<GivenName>Tess<\/GivenName>/);
    expect(full.body).not.toContain(pemBody(spKeys.key).slice(0, 40));
    const config = await server.call('GET', '/sso/config', { token: await server.login() });
    expect(JSON.stringify(config.body)).not.toContain(pemBody(spKeys.key).slice(0, 40));

    await saveConfig({ saml_config: { security: { authnRequestsSigned: true } } });
    expect((await server.call<string>('GET', '/saml/metadata')).body).toContain('AuthnRequestsSigned="true"');
    const request = await start();
    expect(request.signature?.sigAlg).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    const { signedText, value } = request.signature ?? { signedText: '', value: '' };
    expect(verify('sha256', Buffer.from(signedText), spKeys.cert, Buffer.from(value, 'base64'))).toBe(true);
    expect(verify('sha256', Buffer.from(`${signedText}x`), spKeys.cert, Buffer.from(value, 'base64'))).toBe(false);
    const acs = await post(answer(request, { nameId: 'dana@example.test' }), request.relayState);
    expect(acs.done).toBeTruthy();
  });
});
