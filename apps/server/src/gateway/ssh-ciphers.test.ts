import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentProcess, eventually, startAgent } from '../test/agent-process.js';
import { enrolGatewayHost } from '../test/gateway-host.js';
import { type TestServer, startTestServer } from '../test/harness.js';
import { type ServerProcess, api, startServerProcess } from '../test/server-process.js';
import { type Sshd, ssh, startSshd, userKey } from '../test/sshd.js';
import { nativeCrypto } from './ssh-algorithms.js';

/** Loads ssh2 as where its add-on could not be built (`npm ci --ignore-scripts`, no compiler). */
const WITHOUT_NATIVE = new URL('../../../../scripts/ssh2-without-native.mjs', import.meta.url).href;

/** The ciphers a session negotiated: the user's `ssh -vv` to the gateway, the gateway to sshd. */
function negotiated(sshStderr: string, sshdLog: string): { user: string | undefined; upstream: string | undefined } {
  return {
    user: /kex: server->client cipher: (\S+)/.exec(sshStderr)?.[1],
    // sshd at DEBUG1 names the cipher of each direction; the last session is the newest line.
    upstream: [...sshdLog.matchAll(/kex: server->client cipher: (\S+)/g)].at(-1)?.[1],
  };
}

/**
 * Issue 19: the gateway's ciphers follow measured speed (docs/benchmarks.md, "SSH ciphers"). OpenSSH
 * asks for chacha20-poly1305 first; ssh2 computes it in JavaScript unless its native add-on was built,
 * so without the add-on the gateway leaves it out and the client takes aes128-ctr (Node's crypto).
 * Towards the target the gateway is the client, and it asks for aes128-gcm first.
 */
describe('the gateway negotiates the ciphers ordered by measured speed', () => {
  const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ciphers-'));
  const nina = userKey(keys, 'nina');
  const user = { email: 'nina@example.test', password: 'nina-password-1', publicKey: nina.publicKey };
  let sshd: Sshd;

  beforeAll(async () => {
    sshd = await startSshd({ logLevel: 'DEBUG1' });
  });
  afterAll(() => {
    sshd?.stop();
    fs.rmSync(keys, { recursive: true, force: true });
  });

  describe(`in this process (ssh2 native add-on ${nativeCrypto ? 'built' : 'absent'})`, () => {
    let server: TestServer;
    let agent: AgentProcess;

    beforeAll(async () => {
      server = await startTestServer('pglite');
      const admin = await server.login();
      ({ agent } = await enrolGatewayHost(server, admin, sshd, { hostname: 'web-01', definition: 'web', user }));
    });
    afterAll(async () => {
      agent?.child.kill('SIGTERM');
      await server?.stop();
    });

    it('OpenSSH takes chacha20-poly1305 only when it is native, and the target hop takes aes128-gcm', async () => {
      const session = ssh(
        ['-vv', '-i', nina.file, '-p', String(server.sshPort), `${user.email}@web-01@127.0.0.1`, 'echo ciphered'],
        {
          timeoutMs: 60_000,
        },
      );
      const { code, stdout, stderr } = await session.done;
      expect(stdout, stderr).toContain('ciphered');
      expect(code).toBe(0);
      expect(negotiated(stderr, sshd.log())).toEqual({
        user: nativeCrypto ? 'chacha20-poly1305@openssh.com' : 'aes128-ctr',
        upstream: 'aes128-gcm@openssh.com',
      });
    });
  });

  describe('a server process whose ssh2 add-on is absent still relays sessions', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ciphers-js-'));
    const ADMIN = { email: 'root@example.test', password: 'ciphers-password-1' };
    let server: ServerProcess;
    let agent: AgentProcess;
    let token: string;

    beforeAll(async () => {
      server = await startServerProcess({
        GATEHOUSE_DATA_DIR: dataDir,
        GATEHOUSE_ADMIN_EMAIL: ADMIN.email,
        GATEHOUSE_ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'info',
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${WITHOUT_NATIVE}`,
      });
      const login = await api<{ response: { user: { authentication_token: string } } }>(
        server.url,
        'POST',
        '/api/login?include_auth_token',
        undefined,
        ADMIN,
      );
      token = login.response.user.authentication_token;
      const { key } = await api<{ key: string }>(server.url, 'POST', '/api/apikey', token, { description: 'js' });
      agent = startAgent({ server: server.url, key, hostname: 'web-02' });
      const agentId = (
        await eventually(
          () => api<{ agents: { id: string; connected: boolean }[] }>(server.url, 'GET', '/api/agent', token),
          (r) => r.agents[0]?.connected === true,
        )
      ).agents[0]!.id;
      await api(server.url, 'POST', `/api/agent/${agentId}/config`, token, { whitelist: [sshd.port] });
      await eventually(
        async () => fs.readFileSync(path.join(agent.stateDir, 'config.json'), 'utf8'),
        (text) => text.includes(String(sshd.port)),
      );
      const def = await api<{ definition: { id: string; public_key: string } }>(
        server.url,
        'POST',
        '/api/tunneldefinition/ssh',
        token,
        { name: 'web-js', host_id: agentId, port: sshd.port, ssh_login: sshd.login },
      );
      sshd.authorizeKey(def.definition.public_key);
      await api(server.url, 'POST', '/api/user/me/ssh-keys', token, { name: 'k', public_key: nina.publicKey });
      const users = await api<{ users: { id: string; email: string }[] }>(server.url, 'GET', '/api/user', token);
      await api(server.url, 'PUT', `/api/tunneldefinition/${def.definition.id}/users`, token, {
        users: [users.users.find((u) => u.email === ADMIN.email)!.id],
      });
    });
    afterAll(() => {
      agent?.child.kill('SIGTERM');
      server?.child.kill('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('relays a bulk download, OpenSSH takes aes128-ctr and cannot have chacha20-poly1305', async () => {
      const target = `${ADMIN.email}@web-02@127.0.0.1`;
      const session = ssh(
        ['-vv', '-i', nina.file, '-p', String(server.sshPort), target, "head -c 3000000 /dev/zero | tr '\\0' x"],
        {
          timeoutMs: 60_000,
        },
      );
      const { code, stdout, stderr } = await session.done;
      expect(stdout.length, stderr).toBe(3_000_000);
      expect(code).toBe(0);
      expect(negotiated(stderr, sshd.log())).toEqual({ user: 'aes128-ctr', upstream: 'aes128-gcm@openssh.com' });
      // chacha20-poly1305 is not on offer at all: a client that insists on it is refused.
      const insisting = ssh([
        '-v',
        '-i',
        nina.file,
        '-c',
        'chacha20-poly1305@openssh.com',
        '-p',
        String(server.sshPort),
        target,
        'true',
      ]);
      const refused = await insisting.done;
      expect(refused.code).toBe(255);
      expect(refused.stderr).toMatch(/no matching cipher/);
    });
  });
});
