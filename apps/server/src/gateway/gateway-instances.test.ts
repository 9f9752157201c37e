import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server.js';
import { type AgentProcess, eventually, startAgent } from '../test/agent-process.js';
import { ADMIN, startInstances } from '../test/harness.js';
import { type Sshd, ssh, startSshd, userKey } from '../test/sshd.js';

type Rec = { id: string; ended_on: string | null; end_reason: string | null; terminated_by: string | null };

// Two server instances on one PostgreSQL and one Redis. The agent and the ssh session are on
// instance A; the console that watches and terminates talks to instance B.
describe.runIf(process.env.TEST_DATABASE_URL && process.env.REDIS_URL)(
  'gateway sessions across two server instances',
  () => {
    const servers: RunningServer[] = [];
    let stopInstances: () => Promise<void> = async () => undefined;
    const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-keys-'));
    const vera = userKey(keys, 'vera');
    let sshd: Sshd;
    let agent: AgentProcess;
    let agentId: string;
    let token: string;

    const call = async <T>(base: string, method: string, route: string, body?: unknown, headers = {}) => {
      const res = await fetch(`${base}${route}`, {
        method,
        headers: {
          'authentication-token': token,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as T };
    };

    beforeAll(async () => {
      const started = await startInstances(2);
      servers.push(...started.servers);
      stopInstances = started.stop;
      const [a] = servers as [RunningServer];
      const res = await fetch(`${a.url}/api/login?include_auth_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      token = ((await res.json()) as { response: { user: { authentication_token: string } } }).response.user
        .authentication_token;
      sshd = await startSshd();
      const { key } = (await call<{ key: string }>(a.url, 'POST', '/api/apikey', { description: 'two' })).body;
      agent = startAgent({ server: a.url, key, hostname: 'web-02' });
      agentId = (await eventually(
        async () =>
          (await call<{ agents: { id: string; connected: boolean }[] }>(a.url, 'GET', '/api/agent')).body.agents[0],
        (x) => x?.connected === true,
      ))!.id;
      await call(a.url, 'POST', `/api/agent/${agentId}/config`, { whitelist: [sshd.port] });
      const config = path.join(agent.stateDir, 'config.json');
      await eventually(
        async () => (fs.existsSync(config) ? fs.readFileSync(config, 'utf8') : ''),
        (text) => text.includes(String(sshd.port)),
      );
      const def = await call<{ definition: { id: string; public_key: string } }>(
        a.url,
        'POST',
        '/api/tunneldefinition/ssh',
        { name: 'web-02 shell', host_id: agentId, port: sshd.port, ssh_login: sshd.login },
      );
      sshd.authorizeKey(def.body.definition.public_key);
      await call(a.url, 'POST', '/api/user/me/ssh-keys', { name: 'laptop', public_key: vera.publicKey });
      const me = (await call<{ users: { id: string; email: string }[] }>(a.url, 'GET', '/api/user')).body.users.find(
        (u) => u.email === ADMIN.email,
      )!;
      await call(a.url, 'PUT', `/api/tunneldefinition/${def.body.definition.id}/users`, { users: [me.id] });
    }, 60_000);

    afterAll(async () => {
      agent?.child.kill('SIGKILL');
      sshd?.stop();
      await stopInstances();
    });

    it('a console on instance B watches and terminates a session held by instance A', async () => {
      const [a, b] = servers as [RunningServer, RunningServer];
      const live = ssh.call(null, [
        '-p',
        String(a.sshPort),
        '-i',
        vera.file,
        `${ADMIN.email}@web-02@127.0.0.1`,
        'for i in $(seq 1 300); do echo far-tick-$i; sleep 0.1; done',
      ]);
      const rec = (
        await eventually(
          async () => (await call<{ recordings: Rec[] }>(b.url, 'GET', '/api/recording')).body.recordings,
          (l) => l.some((r) => r.ended_on === null),
        )
      ).find((r) => r.ended_on === null)!;
      expect(a.services.recordings.find(rec.id)).toBeDefined();
      expect(b.services.recordings.find(rec.id)).toBeUndefined();

      // Watching through B: A learns of the watcher and its chunks reach B's socket through Redis.
      const watcher = connectSocket(b.url, { auth: { token }, transports: ['websocket'], reconnection: false });
      const seen: string[] = [];
      watcher.on('record_out', (m: { seq: number; events: [number, string, string][] }) => {
        if (m.seq > 0) seen.push(...m.events.map((e) => e[2]));
      });
      const terminated = new Promise((resolve) => watcher.on('tunnel_terminated', resolve));
      watcher.emit('new_record_attach', { recording_id: rec.id, replay: true });
      await eventually(
        async () => seen.join(''),
        (text) => /far-tick-\d+/.test(text),
      );

      const asked = Date.now();
      const res = await call<{ message: string }>(b.url, 'DELETE', `/api/tunnel/${rec.id}`, undefined, {
        'host-id': agentId,
      });
      expect(res).toEqual({ status: 200, body: { message: 'Session terminated' } });
      const ended = await live.done;
      expect(Date.now() - asked).toBeLessThan(1000);
      expect(ended.stderr).toContain(`terminated by ${ADMIN.email}`);
      await terminated;
      watcher.close();
      const row = await eventually(
        () => b.services.repositories.recordings.find(rec.id),
        (r) => r?.endedOn !== null,
      );
      expect(row).toMatchObject({ endReason: 'terminated', terminatedBy: ADMIN.email });

      // Ended now: the API says so, and no instance claims the session any more.
      const again = await call<{ message: string }>(b.url, 'DELETE', `/api/tunnel/${rec.id}`);
      expect(again.status).toBe(409);
      expect(await b.services.recordings.requestTerminate(rec.id, ADMIN.email)).toBe(false);
      expect(await b.services.recordings.requestTerminate(crypto.randomUUID(), ADMIN.email)).toBe(false);
    }, 30_000);
  },
);
