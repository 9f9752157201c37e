import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type TestServer, startTestServer } from '../../test/harness.js';
import { fakeSystemctl, runPiped, scratch } from './install-rig.js';
import { renderInstallScript, serverUrlFor, shellQuote } from './install-script.js';

/** GET with a Host header of our choosing (fetch does not let a caller set Host). */
function getWithHost(
  url: string,
  host: string,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

const HOSTILE_KEYS = [
  "'; touch MARK #",
  '$(touch MARK)',
  '`touch MARK`',
  'ghk_x\ntouch MARK',
  'ghk_x; touch MARK',
  '--server=http://evil.example',
];

describe('install script: nothing a key, a Host header or a setting holds reaches a shell', () => {
  let server: TestServer;
  let admin: string;
  let key: string;
  let dir: string;
  const secretKey = randomBytes(32).toString('hex');

  beforeAll(async () => {
    server = await startTestServer('pglite', { publicUrl: undefined, secretKey });
    admin = await server.login();
    key = (await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'attack' } }))
      .body.key;
    dir = scratch('gh-install-attack-');
  }, 60_000);

  afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a hostile registration key is refused before it reaches any command; nothing is run or enrolled', async () => {
    const script = (await server.call<string>('GET', '/api/agent/install.sh')).body;
    const systemctl = fakeSystemctl(dir);
    const root = path.join(dir, 'root');
    const env = { PATH: `${systemctl.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, GATEHOUSE_INSTALL_ROOT: root };
    for (const [i, template] of HOSTILE_KEYS.entries()) {
      const mark = path.join(dir, `pwned-${i}`);
      const hostile = template.replaceAll('MARK', mark);
      const res = await runPiped(script, ['--key', hostile], env);
      expect(res.code, hostile).toBe(1);
      expect(res.stderr, hostile).toContain('may hold only letters, digits');
      expect(fs.existsSync(mark), hostile).toBe(false);
      // Also through the key file.
      const keyFile = path.join(dir, 'key');
      fs.writeFileSync(keyFile, hostile);
      const fromFile = await runPiped(script, ['--key-file', keyFile], env);
      expect(fromFile.code, hostile).toBe(1);
      expect(fs.existsSync(mark), hostile).toBe(false);
    }
    // The brief's own example, against the machine's real /tmp too.
    const tmpMark = `/tmp/gh-h1-x-${process.pid}`;
    const res = await runPiped(script, ['--key', `'; touch ${tmpMark} #`], env);
    expect(res.code).toBe(1);
    expect(fs.existsSync(tmpMark)).toBe(false);
    expect(fs.existsSync(path.join(root, 'opt'))).toBe(false);
    expect(systemctl.calls()).toEqual([]);
    const listed = await server.call<{ agents: unknown[] }>('GET', '/api/agent', { token: admin });
    expect(listed.body.agents).toEqual([]);
  }, 30_000);

  it('hostile --hostname, --state-dir, --node and install root are refused', async () => {
    const script = (await server.call<string>('GET', '/api/agent/install.sh')).body;
    const mark = path.join(dir, 'pwned-options');
    const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', GATEHOUSE_INSTALL_ROOT: path.join(dir, 'root2') };
    const attempts: [string[], NodeJS.ProcessEnv][] = [
      [['--key', key, '--hostname', `x;touch ${mark}`], base],
      [['--key', key, '--state-dir', `/var/lib/x$(touch ${mark})`], base],
      [['--key', key, '--state-dir', '/var/lib/../../etc'], base],
      [['--key', key, '--node', `/usr/bin/node;touch ${mark}`], base],
      [['--key', key], { ...base, GATEHOUSE_INSTALL_ROOT: `/tmp/x'$(touch ${mark})` }],
    ];
    for (const [args, env] of attempts) {
      const res = await runPiped(script, args, env);
      expect(res.code, args.join(' ')).toBe(1);
      expect(fs.existsSync(mark), args.join(' ')).toBe(false);
    }
  }, 30_000);

  it('a hostile Host header is answered 400; a plain one names only itself, uncached; the setting wins over it', async () => {
    for (const host of [`evil.example'$(id)`, 'evil.example;id', 'a b', 'evil.example/`id`', 'evil.example%27']) {
      const res = await getWithHost(`${server.url}/api/agent/install.sh`, host);
      expect(res.status, host).toBe(400);
      expect(res.body).not.toContain('$(id)');
    }
    const plain = await getWithHost(`${server.url}/api/agent/install.sh`, 'other.example:8443');
    expect(plain.status).toBe(200);
    expect(plain.body).toContain("GATEHOUSE_SERVER_URL='http://other.example:8443'");
    expect(plain.headers['cache-control']).toBe('no-store');

    const fresh = await server.login();
    const saved = await server.call('POST', '/api/settings', {
      token: fresh,
      body: { public_url: 'https://gatehouse.example.com/' },
    });
    expect(saved.status).toBe(200);
    const configured = await getWithHost(`${server.url}/api/agent/install.sh`, 'evil.example');
    expect(configured.body).toContain("GATEHOUSE_SERVER_URL='https://gatehouse.example.com'");
    expect(configured.body).not.toContain('evil.example');

    // A setting no shell could take as it is: the script is not served rather than served quoted.
    await server.call('POST', '/api/settings', { token: fresh, body: { public_url: "https://x.example/'$(id)" } });
    const refused = await server.call('GET', '/api/agent/install.sh');
    expect(refused.status).toBe(503);
    await server.call('POST', '/api/settings', { token: fresh, body: { public_url: '' } });
  }, 30_000);

  it('the script and the file hold no secret: no key, credential, token, password or server secret', async () => {
    const script = (await server.call<string>('GET', '/api/agent/install.sh')).body;
    const file = await (await fetch(`${server.url}/api/agent/download/gatehouse-agent.mjs`)).text();
    const secrets = [key, admin, ADMIN.password, secretKey].filter((s) => s.length >= 8);
    expect(secrets.length).toBe(4);
    for (const secret of secrets) {
      expect(script).not.toContain(secret);
      expect(file).not.toContain(secret);
    }
    expect(script).not.toMatch(/ghk_[A-Za-z0-9_-]{20,}/);
    expect(file).not.toMatch(/ghk_[A-Za-z0-9_-]{20,}/);
  });

  it('quotes for sh and refuses URLs it could not put in a unit as they are', () => {
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
    const request = { protocol: 'http', host: '127.0.0.1:1' };
    expect(serverUrlFor('https://g.example/base/', request)).toBe('https://g.example/base');
    expect(serverUrlFor(undefined, { protocol: 'https', host: '[::1]:8443' })).toBe('https://[::1]:8443');
    for (const bad of ["https://g.example/'", 'https://g.example/%41', 'https://g.example/a b', 'ftp://g.example']) {
      expect(() => serverUrlFor(bad, request), bad).toThrow(/public URL/);
    }
    const rendered = renderInstallScript(
      { bytes: Buffer.alloc(0), sha256: 'ab', version: "1'2", template: "V='__GATEHOUSE_AGENT_VERSION__'" },
      'http://h',
    );
    expect(rendered).toBe(`V='1'\\''2'`);
  });
});
