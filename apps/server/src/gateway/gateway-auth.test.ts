import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import type { AuthContext } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../test/harness.js';
import { userKey } from '../test/sshd.js';
import { GatewayAuth, parseGatewayUsername } from './gateway-auth.js';

describe('gateway login checks', () => {
  let server: TestServer;
  let auth: GatewayAuth;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-auth-'));
  const key = userKey(dir, 'yuki');
  const privateKey = ssh2.utils.parseKey(fs.readFileSync(key.file));
  const publicBlob = Buffer.from(key.publicKey.split(' ')[1] ?? '', 'base64');
  beforeAll(async () => {
    server = await startTestServer('pglite');
    await server.createUser('yuki@example.test', 'yuki-password');
    const token = await server.login('yuki@example.test', 'yuki-password');
    await server.call('POST', '/api/user/me/ssh-keys', { token, body: { name: 'k', public_key: key.publicKey } });
    const r = server.services.repositories;
    auth = new GatewayAuth(r.users, r.sshKeys, server.services.auth, (local) => r.usersAdmin.findByLocalPart(local));
  });
  afterAll(async () => server.stop());

  const publickey = (extra: Partial<AuthContext>) =>
    ({
      method: 'publickey',
      username: 'yuki@example.test@web-01',
      key: { algo: 'ssh-ed25519', data: publicBlob },
      ...extra,
    }) as unknown as AuthContext;

  it('splits the login at its last @ into the user and the host', () => {
    expect(parseGatewayUsername('alice@example.com@Web-01')).toEqual({ user: 'alice@example.com', host: 'web-01' });
    expect(parseGatewayUsername('alice@web-01')).toEqual({ user: 'alice', host: 'web-01' });
    expect(parseGatewayUsername('no-host')).toBeUndefined();
    expect(parseGatewayUsername('trailing@')).toBeUndefined();
  });

  it('answers a public-key probe without a signature but authenticates nobody', async () => {
    expect(await auth.check(publickey({}), 'yuki@example.test', '127.0.0.1')).toEqual({ ok: false, probe: true });
  });

  it('accepts a key only once its signature verifies', async () => {
    if (privateKey instanceof Error) throw privateKey;
    const blob = Buffer.from('session-id-and-request-data');
    const good = privateKey.sign(blob);
    const outcome = await auth.check(publickey({ blob, signature: good }), 'yuki@example.test', '127.0.0.1');
    expect(outcome.ok).toBe(true);
    const forged = Buffer.from(good);
    forged[0] = forged[0]! ^ 0xff;
    expect(await auth.check(publickey({ blob, signature: forged }), 'yuki@example.test', '127.0.0.1')).toEqual({
      ok: false,
    });
  });

  it('finds a user by the local part of the email, and checks passwords with the lockout', async () => {
    const ok = await auth.check(
      { method: 'password', password: 'yuki-password' } as unknown as AuthContext,
      'yuki',
      '127.0.0.1',
    );
    expect(ok.ok).toBe(true);
    const bad = await auth.check(
      { method: 'password', password: 'nope' } as unknown as AuthContext,
      'yuki',
      '127.0.0.1',
    );
    expect(bad).toEqual({ ok: false });
  });
});
