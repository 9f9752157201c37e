import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

/** A key pair made by the real ssh-keygen, with its fingerprint as ssh-keygen prints it. */
function keygen(type: string, bits?: number): { publicKey: string; fingerprint: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-keygen-'));
  const file = path.join(dir, 'key');
  execFileSync('ssh-keygen', [
    '-q',
    '-t',
    type,
    ...(bits ? ['-b', String(bits)] : []),
    '-N',
    '',
    '-C',
    'tester@laptop',
    '-f',
    file,
  ]);
  const publicKey = fs.readFileSync(`${file}.pub`, 'utf8').trim();
  const fingerprint =
    execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`])
      .toString()
      .split(' ')[1] ?? '';
  fs.rmSync(dir, { recursive: true, force: true });
  return { publicKey, fingerprint };
}

type KeyAnswer = { key: { id: string; type: string; fingerprint: string; public_key: string } };

describe.each(DATABASES)('SSH public keys on %s', (kind) => {
  let server: TestServer;
  let quinn: string;
  let rosa: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser('quinn@example.test', 'quinn-password');
    await server.createUser('rosa@example.test', 'rosa-password');
    quinn = await server.login('quinn@example.test', 'quinn-password');
    rosa = await server.login('rosa@example.test', 'rosa-password');
  });
  afterAll(async () => server.stop());

  it('registers keys made by ssh-keygen with the fingerprint ssh-keygen prints', async () => {
    for (const [type, bits] of [['ed25519'], ['ecdsa', 384], ['rsa', 3072]] as const) {
      const made = keygen(type, bits);
      const res = await server.call<KeyAnswer>('POST', '/api/user/me/ssh-keys', {
        token: quinn,
        body: { name: `laptop ${type}`, public_key: made.publicKey },
      });
      expect(res.status, made.publicKey).toBe(201);
      expect(res.body.key.fingerprint).toBe(made.fingerprint);
      expect(made.publicKey.startsWith(res.body.key.public_key)).toBe(true);
    }
    const list = await server.call<{ keys: unknown[] }>('GET', '/api/user/me/ssh-keys', { token: quinn });
    expect(list.body.keys).toHaveLength(3);
  });

  it('refuses the same key twice, weak RSA, garbage and mismatched types', async () => {
    const made = keygen('ed25519');
    await server.call('POST', '/api/user/me/ssh-keys', {
      token: quinn,
      body: { name: 'a', public_key: made.publicKey },
    });
    expect(
      (
        await server.call('POST', '/api/user/me/ssh-keys', {
          token: quinn,
          body: { name: 'b', public_key: made.publicKey },
        })
      ).status,
    ).toBe(409);
    const weak = keygen('rsa', 1024);
    const weakRes = await server.call<{ message: string }>('POST', '/api/user/me/ssh-keys', {
      token: quinn,
      body: { name: 'old', public_key: weak.publicKey },
    });
    expect(weakRes.status).toBe(400);
    expect(weakRes.body.message).toMatch(/2048 bits/);
    const [, data] = made.publicKey.split(' ');
    for (const line of ['hello world', `ssh-rsa ${data}`, 'ssh-ed25519 !!!notbase64', '']) {
      expect(
        (await server.call('POST', '/api/user/me/ssh-keys', { token: quinn, body: { name: 'x', public_key: line } }))
          .status,
        line,
      ).toBe(400);
    }
  });

  it('keeps each user’s keys their own', async () => {
    const mine = await server.call<{ keys: { id: string }[] }>('GET', '/api/user/me/ssh-keys', { token: quinn });
    const id = mine.body.keys[0]?.id ?? '';
    expect((await server.call<{ keys: unknown[] }>('GET', '/api/user/me/ssh-keys', { token: rosa })).body.keys).toEqual(
      [],
    );
    expect((await server.call('DELETE', `/api/user/me/ssh-keys/${id}`, { token: rosa })).status).toBe(404);
    expect((await server.call('DELETE', `/api/user/me/ssh-keys/${id}`, { token: quinn })).status).toBe(200);
  });
});
