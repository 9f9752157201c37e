import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AgentProcess, eventually, startAgent } from '../test/agent-process.js';
import { api, startServerProcess } from '../test/server-process.js';
import { type Sshd, ssh, startSshd, userKey } from '../test/sshd.js';

const ADMIN = { email: 'root@example.test', password: 'recovery-password' };

/** Starts the built server as a process on a data folder. */
const startProcess = (dataDir: string) =>
  startServerProcess({
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_ADMIN_EMAIL: ADMIN.email,
    GATEHOUSE_ADMIN_PASSWORD: ADMIN.password,
  });

// The real server process is killed with SIGKILL mid-session, then started again on its data.
describe('a recording whose server died', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-recovery-'));
  const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-recovery-keys-'));
  let sshd: Sshd | undefined;
  let agent: AgentProcess | undefined;
  const processes: ChildProcess[] = [];
  afterAll(() => {
    for (const p of processes) p.kill('SIGKILL');
    agent?.child.kill('SIGKILL');
    sshd?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is finalised when the server starts again, keeping what reached the disk', async () => {
    const first = await startProcess(dataDir);
    processes.push(first.child);
    sshd = await startSshd();
    const token = (
      await api<{ response: { user: { authentication_token: string } } }>(
        first.url,
        'POST',
        '/api/login',
        undefined,
        ADMIN,
      )
    ).response.user.authentication_token;
    const { key } = await api<{ key: string }>(first.url, 'POST', '/api/apikey', token, { description: 'r' });
    agent = startAgent({ server: first.url, key, hostname: 'web-09' });
    const agentId = (
      await eventually(
        () => api<{ agents: { id: string; connected: boolean }[] }>(first.url, 'GET', '/api/agent', token),
        (r) => r.agents[0]?.connected === true,
      )
    ).agents[0]!.id;
    await api(first.url, 'POST', `/api/agent/${agentId}/config`, token, { whitelist: [sshd.port] });
    const def = await api<{ definition: { id: string; public_key: string } }>(
      first.url,
      'POST',
      '/api/tunneldefinition/ssh',
      token,
      { name: 's', host_id: agentId, port: sshd.port, ssh_login: sshd.login },
    );
    sshd.authorizeKey(def.definition.public_key);
    const me = userKey(keys, 'root-key');
    await api(first.url, 'POST', '/api/user/me/ssh-keys', token, { name: 'k', public_key: me.publicKey });
    const users = await api<{ users: { id: string }[] }>(first.url, 'GET', '/api/user', token);
    await api(first.url, 'PUT', `/api/tunneldefinition/${def.definition.id}/users`, token, {
      users: [users.users[0]!.id],
    });

    const session = ssh([
      '-p',
      String(first.sshPort),
      '-i',
      me.file,
      `${ADMIN.email}@web-09@127.0.0.1`,
      'for i in $(seq 1 300); do echo pulse-$i; sleep 0.1; done',
    ]);
    const live = await eventually(
      () => api<{ recordings: { id: string; ended_on: string | null }[] }>(first.url, 'GET', '/api/recording', token),
      (r) => r.recordings.length > 0,
    );
    const id = live.recordings[0]!.id;
    await new Promise((r) => setTimeout(r, 2500)); // at least two flushes reach the disk
    first.child.kill('SIGKILL');
    await session.done;

    const second = await startProcess(dataDir);
    processes.push(second.child);
    const token2 = (
      await api<{ response: { user: { authentication_token: string } } }>(
        second.url,
        'POST',
        '/api/login',
        undefined,
        ADMIN,
      )
    ).response.user.authentication_token;
    const after = await api<{ recordings: { id: string; ended_on: string | null; end_reason: string }[] }>(
      second.url,
      'GET',
      '/api/recording',
      token2,
    );
    const row = after.recordings.find((r) => r.id === id)!;
    expect(row.ended_on).not.toBeNull();
    expect(row.end_reason).toBe('recovered');
    const cast = fs
      .readdirSync(path.join(dataDir, 'recordings'), { recursive: true })
      .map(String)
      .find((f) => f.endsWith(`${id}.cast`))!;
    const text = fs.readFileSync(path.join(dataDir, 'recordings', cast), 'utf8');
    expect(text).toContain('pulse-1');
    expect(fs.existsSync(path.join(dataDir, 'recordings', `${cast}.manifest.json`))).toBe(true);
  }, 90_000);
});
