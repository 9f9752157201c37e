import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { MyAccess } from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../../test/harness.js';

/** GET /api/me/access with a Host header of the test's choosing (fetch cannot set one). */
function withHost(server: TestServer, token: string, host: string): Promise<{ status: number; body: MyAccess }> {
  const url = new URL(`${server.url}/api/me/access`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, headers: { host, 'authentication-token': token } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as MyAccess }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The words /bin/sh makes of a command line (the program replaced by printf, so nothing runs). */
function wordsOf(line: string, program: RegExp): string[] {
  const out = execFileSync('/bin/sh', ['-c', line.replace(program, "printf '%s\\n' ")], { encoding: 'utf8' });
  return out.split('\n').slice(0, -1);
}

describe('my access answers only the caller’s own reach, in commands nothing can hijack', () => {
  let server: TestServer;
  let admin: string;
  let alice: string;
  let bob: string;
  let secret: string;
  const canary = path.join(os.tmpdir(), `gh-my-access-canary-${process.pid}`);

  beforeAll(async () => {
    // Listening everywhere and no public URL: the Host header is the only hint left, the client's to choose.
    server = await startTestServer('pglite', { sshHost: '0.0.0.0', publicUrl: undefined });
    admin = await server.login();
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'k', uses: 5 } })
    ).body.key;
    const host = (
      await server.call<{ id: string }>('POST', '/api/agent/register', {
        body: { key, hostname: 'vault-01', os: 1, version: '2.0.0' },
      })
    ).body.id;
    await server.createUser("o'hara@example.test", 'alice-password');
    await server.createUser('bob@example.test', 'bob-password');
    const users = await server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', { token: admin });
    const id = (email: string) => users.body.users.find((u) => u.email === email)!.id;
    const make = async (type: string, body: Record<string, unknown>, who: string) => {
      const res = await server.call<{ definition: { id: string } }>('POST', `/api/tunneldefinition/${type}`, {
        token: admin,
        body: { host_id: host, ...body },
      });
      expect(res.status).toBe(201);
      await server.call('PUT', `/api/tunneldefinition/${res.body.definition.id}/users`, {
        token: admin,
        body: { users: [id(who)] },
      });
      return res.body.definition.id;
    };
    secret = await make(
      'ssh',
      { name: 'vault root', ssh_login: 'root', ssh_auth: 'password', password: 'vault-root-password' },
      "o'hara@example.test",
    );
    await make('generic', { name: `db'; touch ${canary} #$(touch ${canary})`, port: 5432 }, "o'hara@example.test");
    await make('rdp', { name: 'bob desktop' }, 'bob@example.test');
    alice = await server.login("o'hara@example.test", 'alice-password');
    bob = await server.login('bob@example.test', 'bob-password');
  });
  afterAll(async () => {
    fs.rmSync(canary, { force: true });
    await server.stop();
  });

  it('a user cannot read another user’s reach, whatever they add to the call', async () => {
    const own = await server.call<MyAccess>('GET', '/api/me/access', { token: bob });
    expect(own.body.entries.map((e) => e.definition.name)).toEqual(['bob desktop']);
    for (const query of [
      `?email=${encodeURIComponent("o'hara@example.test")}`,
      "?user=o'hara@example.test",
      `?user_id=${secret}`,
      '?email=admin@example.test&all=true',
    ]) {
      const res = await server.call<MyAccess>('GET', `/api/me/access${query}`, { token: bob });
      expect([200, 400]).toContain(res.status);
      if (res.status === 200) expect(res.body).toEqual(own.body);
      expect(JSON.stringify(res.body)).not.toContain('vault root');
      expect(JSON.stringify(res.body)).not.toContain(secret);
    }
    // The admin's reach is the admin's own too: holding every permission does not mean every definition.
    const admins = await server.call<MyAccess>('GET', '/api/me/access', { token: admin });
    expect(admins.body.entries).toEqual([]);
    // The per-user reach call still needs list-group for anyone else.
    expect(
      (await server.call('GET', `/api/user/${encodeURIComponent("o'hara@example.test")}/reach`, { token: bob })).status,
    ).toBe(403);
  });

  it('nobody without a session token gets an answer: no token, a bad one, an agent’s headers', async () => {
    expect((await server.call('GET', '/api/me/access')).status).toBe(401);
    expect((await server.call('GET', '/api/me/access', { token: 'not-a-token' })).status).toBe(401);
    const agent = await server.call('GET', '/api/me/access', {
      headers: { 'x-agent-id': secret, 'x-agent-credential': 'whatever' },
    });
    expect(agent.status).toBe(401);
  });

  it('never answers a definition’s credential', async () => {
    const mine = await server.call<MyAccess>('GET', '/api/me/access', { token: alice });
    const text = JSON.stringify(mine.body);
    expect(text).toContain('vault root');
    expect(text).not.toContain('vault-root-password');
    expect(text).not.toMatch(/v1:|PRIVATE KEY|credential/);
  });

  it('a definition name or an email with shell characters stays one word: pasting the command runs nothing else', async () => {
    const mine = await server.call<MyAccess>('GET', '/api/me/access', { token: alice });
    const db = mine.body.entries.find((e) => e.definition.type === 'generic')!;
    const words = wordsOf(db.commands.tunnel!, /^npx gatehouse /);
    expect(words).toEqual([
      'tunnel',
      db.definition.name,
      '--server',
      mine.body.server_url,
      '--email',
      "o'hara@example.test",
    ]);
    const vault = mine.body.entries.find((e) => e.definition.type === 'ssh')!;
    expect(wordsOf(vault.commands.ssh!, /^ssh /).slice(-1)).toEqual([
      `o'hara@example.test@vault-01@${mine.body.gateway.host}`,
    ]);
    expect(wordsOf(vault.commands.scp!, /^scp /).slice(-1)).toEqual([
      `o'hara@example.test@vault-01@${mine.body.gateway.host}:`,
    ]);
    expect(fs.existsSync(canary)).toBe(false);
  });

  it('a Host header that is not a plain host name never reaches a command', async () => {
    const plain = await withHost(server, alice, 'gatehouse.example.test:8443');
    expect(plain.status).toBe(200);
    expect(plain.body.gateway.host).toBe('gatehouse.example.test');
    expect(plain.body.server_url).toBe('http://gatehouse.example.test:8443');
    for (const host of ['a$(id).example', "x';id;'", 'evil.example`id`']) {
      const res = await withHost(server, alice, host);
      if (res.status !== 200) {
        expect(res.status).toBeLessThan(500);
        continue;
      }
      const text = JSON.stringify(res.body);
      expect(text).not.toMatch(/\$\(id\)|`id`|;id;/);
    }
  });
});
