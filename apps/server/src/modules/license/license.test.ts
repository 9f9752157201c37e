import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { DEV_PRIVATE_KEY, type LicenseClaims, mintLicense } from './license-token.js';

const DAY = 86_400_000;

function claims(overrides: Partial<LicenseClaims> = {}): LicenseClaims {
  return {
    id: randomUUID(),
    customer: 'Example Corp',
    issued_at: new Date().toISOString(),
    expires: new Date(Date.now() + 90 * DAY).toISOString(),
    max_agents: 2,
    ...overrides,
  };
}

type LicenseBody = {
  status: string;
  customer: string | null;
  expires: string | null;
  max_agents: number | null;
  agents_used: number;
};

describe.each(DATABASES)('licence on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
  });
  afterAll(async () => server.stop());

  const save = (license: unknown, token = admin) =>
    server.call<{ message: string; license: LicenseBody }>('POST', '/api/license', { token, body: { license } });

  it('shows a missing licence until one is installed, to every signed-in user', async () => {
    await server.createUser('reader@example.test', 'reader-password');
    const reader = await server.login('reader@example.test', 'reader-password');
    const res = await server.call<LicenseBody>('GET', '/api/license', { token: reader });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'missing', expires: null, max_agents: null });
    expect((await save(mintLicense(claims(), DEV_PRIVATE_KEY), reader)).status).toBe(403);
  });

  it('refuses malformed, forged, foreign-key and expired licences with the reason', async () => {
    const cases: [unknown, RegExp][] = [
      ['hello', /not a Gatehouse licence/],
      ['GHL1.!!!.???', /damaged/],
      [`GHL1.${Buffer.from('{"customer":1}').toString('base64url')}.AAAA`, /damaged: it lacks/],
      [
        mintLicense(
          claims(),
          generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        ),
        /signature is not valid/,
      ],
      [mintLicense(claims({ expires: new Date(Date.now() - DAY).toISOString() }), DEV_PRIVATE_KEY), /expired on/],
      [42, /license is the licence text/],
      ['', /Paste the licence text/],
    ];
    for (const [license, message] of cases) {
      const res = await save(license);
      expect(res.status, String(license)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(message);
    }
    // A licence whose claims were edited after signing (more agents) fails its signature.
    const genuine = mintLicense(claims({ max_agents: 2 }), DEV_PRIVATE_KEY);
    const [prefix, body, signature] = genuine.split('.');
    const edited = JSON.parse(Buffer.from(body ?? '', 'base64url').toString()) as LicenseClaims;
    edited.max_agents = 1000;
    const tampered = `${prefix}.${Buffer.from(JSON.stringify(edited)).toString('base64url')}.${signature}`;
    expect(JSON.stringify((await save(tampered)).body)).toMatch(/signature is not valid/);
    expect((await server.call<LicenseBody>('GET', '/api/license', { token: admin })).body.status).toBe('missing');
  });

  it('installs a licence and enforces its agent limit on enrolment', async () => {
    const expires = new Date(Date.now() + 10 * DAY);
    const res = await save(`  ${mintLicense(claims({ expires: expires.toISOString() }), DEV_PRIVATE_KEY)}\n`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('License saved.');
    expect(res.body.license).toMatchObject({
      status: 'valid',
      customer: 'Example Corp',
      max_agents: 2,
      agents_used: 0,
    });
    expect(res.body.license.expires).toBe(expires.toISOString());
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'k', uses: 5 } })
    ).body.key;
    const register = (hostname: string) =>
      server.call('POST', '/api/agent/register', { body: { key, hostname, os: 1, version: '2.0.0' } });
    expect((await register('one')).status).toBe(201);
    expect((await register('two')).status).toBe(201);
    const third = await register('three');
    expect(third.status).toBe(403);
    expect(JSON.stringify(third.body)).toMatch(/licence allows 2 agents/);
    expect((await server.call<LicenseBody>('GET', '/api/license', { token: admin })).body.agents_used).toBe(2);
  });
});

describe('licence signed with the development key on a production server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { devLicenses: false });
  });
  afterAll(async () => server.stop());

  it('is refused, saying how development licences are enabled', async () => {
    const res = await server.call('POST', '/api/license', {
      token: await server.login(),
      body: { license: mintLicense(claims(), DEV_PRIVATE_KEY) },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/GATEHOUSE_DEV_LICENSES=true/);
  });
});
