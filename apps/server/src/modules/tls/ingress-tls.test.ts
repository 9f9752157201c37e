import { execFile } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

const run = promisify(execFile);

/** A test CA made with the openssl command, and certificates it signs. */
class TestCa {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ca-'));

  async init(): Promise<void> {
    fs.writeFileSync(
      path.join(this.dir, 'ca.cnf'),
      '[ca]\ndefault_ca=t\n[t]\ndir=.\ndatabase=index.txt\nnew_certs_dir=.\nserial=serial\ndefault_md=sha256\npolicy=p\ncopy_extensions=copy\n[p]\ncommonName=supplied\n',
    );
    fs.writeFileSync(path.join(this.dir, 'index.txt'), '');
    fs.writeFileSync(path.join(this.dir, 'serial'), '01\n');
    await this.openssl([
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '30',
      '-subj',
      '/CN=Gatehouse Test CA',
    ]);
  }

  private openssl(args: string[]) {
    return run('openssl', args, { cwd: this.dir });
  }

  read(name: string): string {
    return fs.readFileSync(path.join(this.dir, name), 'utf8');
  }

  /** Issues a certificate for localhost; dates as openssl ca takes them (YYYYMMDDHHMMSSZ). */
  async issue(name: string, dates?: { start: string; end: string }): Promise<{ cert: string; key: string }> {
    await this.openssl([
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      `/CN=${name}.example.test`,
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ]);
    await this.openssl([
      'ca',
      '-batch',
      '-config',
      'ca.cnf',
      '-cert',
      'ca.pem',
      '-keyfile',
      'ca.key',
      '-in',
      `${name}.csr`,
      '-out',
      `${name}.pem`,
      '-notext',
      ...(dates ? ['-startdate', dates.start, '-enddate', dates.end] : ['-days', '20']),
    ]);
    return { cert: this.read(`${name}.pem`), key: this.read(`${name}.key`) };
  }
}

/** The certificate a client trusting only the test CA sees over HTTPS, and the page it gets. */
function fetchTrusting(ca: string, port: number, urlPath: string) {
  return new Promise<{ status: number; body: string; subject: string }>((resolve, reject) => {
    const req = https.get(
      { host: '127.0.0.1', port, path: urlPath, ca, servername: 'localhost', agent: false },
      (res) => {
        const subject = (res.socket as TLSSocket).getPeerCertificate().subject.CN;
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, subject: String(subject) }));
      },
    );
    req.on('error', reject);
  });
}

describe.each(DATABASES)('ingress certificate on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  const ca = new TestCa();
  beforeAll(async () => {
    await ca.init();
    server = await startTestServer(kind, { tlsPort: 0 });
    admin = await server.login();
  });
  afterAll(async () => {
    await server.stop();
    fs.rmSync(ca.dir, { recursive: true, force: true });
  });

  const save = (certificate: unknown, privateKey: unknown) =>
    server.call<{ message: string; certificate: Record<string, unknown> }>('POST', '/api/ingress-tls', {
      token: admin,
      body: { certificate, private_key: privateKey },
    });

  it('has none at first, and serves no HTTPS until one is installed', async () => {
    const res = await server.call('GET', '/api/ingress-tls', { token: admin });
    expect(res.body).toMatchObject({ installed: false, subject: null, days_until_expiry: null });
    expect(server.https?.address()).toBeUndefined();
  });

  it('refuses garbage, a key that does not match, an expired certificate and a wrong chain', async () => {
    const good = await ca.issue('web');
    const other = await ca.issue('other');
    const expired = await ca.issue('old', { start: '20200101000000Z', end: '20200201000000Z' });
    const cases: [unknown, unknown, RegExp][] = [
      ['not a certificate', good.key, /not PEM/],
      ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', good.key, /cannot be read/],
      [good.cert, 'garbage', /private key cannot be read/],
      [good.cert, other.key, /does not belong to the certificate/],
      [expired.cert, expired.key, /expired on 2020-02-01/],
      [ca.read('ca.pem') + good.cert, other.key, /does not belong/],
      [good.cert + other.cert, good.key, /out of order/],
      [undefined, good.key, /certificate is the PEM chain/],
    ];
    for (const [cert, key, message] of cases) {
      const res = await save(cert, key);
      expect(res.status, String(message)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(message);
    }
    expect((await server.call('GET', '/api/ingress-tls', { token: admin })).body).toMatchObject({ installed: false });
  });

  it('serves HTTPS with an uploaded certificate and swaps it without a restart', async () => {
    const first = await ca.issue('first');
    const res = await save(first.cert + ca.read('ca.pem'), first.key);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Certificate saved.');
    expect(res.body.certificate).toMatchObject({
      installed: true,
      subject: 'CN=first.example.test',
      issuer: 'CN=Gatehouse Test CA',
      subject_alternative_names: ['DNS:localhost', 'IP Address:127.0.0.1'],
    });
    expect(res.body.certificate.days_until_expiry).toBeGreaterThanOrEqual(18);
    const port = server.https?.address()?.port ?? 0;
    expect(port).toBeGreaterThan(0);
    const health = await fetchTrusting(ca.read('ca.pem'), port, '/api/health');
    expect(health.status).toBe(200);
    expect(health.subject).toBe('first.example.test');

    const second = await ca.issue('second');
    expect((await save(second.cert, second.key)).status).toBe(200);
    const after = await fetchTrusting(ca.read('ca.pem'), port, '/api/openapi.json');
    expect(after.subject).toBe('second.example.test');
    expect(after.status).toBe(200);
    expect(server.https?.address()?.port).toBe(port);
  });

  it('lets only holders of manage-license install one', async () => {
    await server.createUser('viewer@example.test', 'viewer-password');
    const viewer = await server.login('viewer@example.test', 'viewer-password');
    const res = await server.call('POST', '/api/ingress-tls', {
      token: viewer,
      body: { certificate: 'x', private_key: 'y' },
    });
    expect(res.status).toBe(403);
    expect((await server.call('GET', '/api/ingress-tls', { token: viewer })).body).toMatchObject({ installed: true });
  });
});
