import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedManifest } from '../recordings/chain.js';
import { verifyRecording } from '../recordings/verify.js';
import { type AgentProcess, eventually, startAgent } from '../test/agent-process.js';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { type Sshd, ssh, startSshd, userKey } from '../test/sshd.js';
import { IDLE_TIMING } from './idle-sweep.js';

// The idle timeout counts in minutes; here a "minute" lasts two seconds, and the setting is re-read
// from the database every 300 ms (only the idle test sets a timeout; 0, the default, never ends one).
Object.assign(IDLE_TIMING, { minuteMs: 2000, checkMs: 100, rereadMs: 300 });

const VERIFY_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli/verify-recording.js');

type Rec = {
  id: string;
  ended_on: string | null;
  host: { id: string };
  end_reason: string | null;
  terminated_by: string | null;
};

// OpenSSH ssh → the gateway → a real agent process → Debian's sshd, all on loopback.
// (The exec that once ended with status 255 and no message under load: sshd's EOF came before
// its exit status, and ending the user's channel at the EOF dropped the status. The exit-status
// test below makes that order certain.)
describe.each(DATABASES)('the SSH gateway on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let sshd: Sshd;
  let agent: AgentProcess;
  let agentId: string;
  const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-keys-'));
  const vera = userKey(keys, 'vera');
  const walt = userKey(keys, 'walt');
  const target = (user: string) => `${user}@web-01@127.0.0.1`;
  const gw = (key: string, user: string, ...rest: string[]) => [
    '-p',
    String(server.sshPort),
    '-i',
    key,
    target(user),
    ...rest,
  ];
  const recordings = async () =>
    (await server.call<{ recordings: Rec[] }>('GET', '/api/recording', { token: admin })).body.recordings;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    sshd = await startSshd();
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'gw' } })
    ).body.key;
    agent = startAgent({ server: server.url, key, hostname: 'web-01' });
    agentId = (await eventually(
      async () =>
        (await server.call<{ agents: { id: string; connected: boolean }[] }>('GET', '/api/agent', { token: admin }))
          .body.agents[0],
      (a) => a?.connected === true,
    ))!.id;
    await server.call('POST', `/api/agent/${agentId}/config`, { token: admin, body: { whitelist: [sshd.port] } });
    // The agent enforces its whitelist too: wait until it has applied the new one.
    await eventually(
      async () => fs.readFileSync(path.join(agent.stateDir, 'config.json'), 'utf8'),
      (text) => text.includes(String(sshd.port)),
    );
    const def = await server.call<{ definition: { id: string; public_key: string } }>(
      'POST',
      '/api/tunneldefinition/ssh',
      {
        token: admin,
        body: { name: 'web-01 shell', host_id: agentId, port: sshd.port, ssh_login: sshd.login },
      },
    );
    sshd.authorizeKey(def.body.definition.public_key);
    for (const [email, k] of [
      ['vera@example.test', vera],
      ['walt@example.test', walt],
    ] as const) {
      await server.createUser(email, 'password-123');
      const token = await server.login(email, 'password-123');
      await server.call('POST', '/api/user/me/ssh-keys', { token, body: { name: 'laptop', public_key: k.publicKey } });
    }
    const users = await server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', { token: admin });
    const veraId = users.body.users.find((u) => u.email === 'vera@example.test')!.id;
    await server.call('PUT', `/api/tunneldefinition/${def.body.definition.id}/users`, {
      token: admin,
      body: { users: [veraId] },
    });
  }, 180_000);
  afterAll(async () => {
    // A setup that failed part way leaves some of these unset.
    agent?.child.kill('SIGKILL');
    sshd?.stop();
    await server?.stop();
  });

  it('runs a command through the agent with the definition’s credential, and records it tamper-evidently', async () => {
    const exec = await ssh.call(null, gw(vera.file, 'vera@example.test', 'echo exec-marker-$((6*7)); whoami')).done;
    expect(exec.stderr).toBe('');
    expect(exec.code, `ssh exited ${exec.code}: ${exec.stderr}`).toBe(0);
    expect(exec.stdout).toBe(`exec-marker-42\n${sshd.login}\n`);
    const rec = await eventually(recordings, (list) => list.some((r) => r.ended_on !== null));
    const row = await server.services.repositories.recordings.find(rec[0]!.id);
    const cast = fs.readFileSync(row!.storagePath, 'utf8').split('\n');
    expect(JSON.parse(cast[0]!)).toMatchObject({ version: 2, width: 80, height: 24 });
    const output = cast
      .slice(1)
      .filter(Boolean)
      .map((l) => JSON.parse(l) as [number, string, string]);
    expect(
      output
        .filter((e) => e[1] === 'o')
        .map((e) => e[2])
        .join(''),
    ).toContain('exec-marker-42');
    const pub = fs.readFileSync(path.join(server.dataDir, 'recording-signing.pub'), 'utf8');
    const manifest = row!.manifest as SignedManifest;
    expect(await verifyRecording(row!.storagePath, manifest, pub)).toEqual({ intact: true, problems: [] });
    const cli = await run(process.execPath, [
      VERIFY_CLI,
      row!.storagePath,
      '--public-key',
      path.join(server.dataDir, 'recording-signing.pub'),
    ]);
    expect(cli.code).toBe(0);
    const bytes = fs.readFileSync(row!.storagePath);
    bytes[bytes.length - 5] = bytes[bytes.length - 5]! ^ 1;
    fs.writeFileSync(row!.storagePath, bytes);
    const tampered = await verifyRecording(row!.storagePath, manifest, pub);
    expect(tampered.intact).toBe(false);
    expect(tampered.problems.join()).toMatch(/chunk \d+ was changed/);
    expect(
      (
        await run(process.execPath, [
          VERIFY_CLI,
          row!.storagePath,
          '--public-key',
          path.join(server.dataDir, 'recording-signing.pub'),
        ])
      ).code,
    ).toBe(1);
  });

  it('passes the exit status on when the host sends it after the end of the output', async () => {
    // The command closes its output first; sshd sends EOF, then the exit status 0.3 s later.
    const run = await ssh.call(null, gw(vera.file, 'vera@example.test', 'echo early; exec >&- 2>&-; sleep 0.3; exit 3'))
      .done;
    expect(run.stdout).toBe('early\n');
    expect(run.code, `ssh exited ${run.code}: ${run.stderr}`).toBe(3);
  });

  it('carries an interactive session through a PTY, and the recording replays the same text', async () => {
    const run = await ssh.call(null, ['-tt', ...gw(vera.file, 'vera@example.test')], {
      input: 'echo pty-marker-$((7*6))\nexit\n',
    }).done;
    expect(run.stdout).toContain('pty-marker-42');
    const list = await eventually(recordings, (l) => l.filter((r) => r.ended_on).length >= 2);
    const row = await server.services.repositories.recordings.find(list[0]!.id);
    const replayed = fs
      .readFileSync(row!.storagePath, 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => JSON.parse(l) as [number, string, string])
      .filter((e) => e[1] === 'o')
      .map((e) => e[2])
      .join('');
    expect(replayed).toContain('pty-marker-42');
  });

  it('copies a file with scp (SFTP) both ways', async () => {
    const local = path.join(keys, 'payload.bin');
    const payload = randomBytes(300_000);
    fs.writeFileSync(local, payload);
    const remote = path.join(os.tmpdir(), `gh-scp-${Date.now()}.bin`);
    const options = [
      '-P',
      String(server.sshPort),
      '-i',
      vera.file,
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      'UserKnownHostsFile=/dev/null',
      '-o',
      'BatchMode=yes',
      '-o',
      'IdentitiesOnly=yes',
      '-q',
    ];
    // Never a synchronous child process here: the server under test shares this event loop.
    expect((await run('scp', [...options, local, `${target('vera@example.test')}:${remote}`])).code).toBe(0);
    expect(fs.readFileSync(remote).equals(payload)).toBe(true);
    const back = path.join(keys, 'back.bin');
    expect((await run('scp', [...options, `${target('vera@example.test')}:${remote}`, back])).code).toBe(0);
    expect(fs.readFileSync(back).equals(payload)).toBe(true);
    fs.rmSync(remote);
  });

  it('a gateway login is refused when no definition admits the user, with a message the client shows, and audited', async () => {
    const run = await ssh.call(null, gw(walt.file, 'walt@example.test', 'true')).done;
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('may not open SSH sessions on web-01');
    const denied = await server.services.database.query<{ target: string; detail: { what: string } }>(
      "SELECT target, detail FROM audit_log WHERE action = 'policy.deny' AND actor = 'walt@example.test'",
    );
    expect(denied.at(-1)).toMatchObject({ target: 'web-01', detail: { what: 'tunnel.shell' } });
  });

  it('refuses a key registered to someone else and an unknown user alike', async () => {
    const wrongKey = await ssh.call(null, gw(walt.file, 'vera@example.test', 'true')).done;
    const nobody = await ssh.call(null, gw(walt.file, 'nobody@example.test', 'true')).done;
    expect(wrongKey.code).toBe(255);
    expect(nobody.code).toBe(255);
    expect(wrongKey.stderr).toMatch(/Permission denied/);
    expect(nobody.stderr.replace('nobody@', 'vera@')).toBe(wrongKey.stderr);
  });

  it('lets an administrator watch live, then terminate the session within a second', async () => {
    const before = new Set((await recordings()).map((r) => r.id));
    const live = ssh.call(
      null,
      gw(vera.file, 'vera@example.test', 'for i in $(seq 1 200); do echo tick-$i; sleep 0.1; done'),
    );
    // This session's recording: the new live one (an earlier attempt's may still be running).
    const rec = (await eventually(recordings, (l) => l.some((r) => r.ended_on === null && !before.has(r.id)))).find(
      (r) => r.ended_on === null && !before.has(r.id),
    )!;
    const watcher = connectSocket(server.url, { auth: { token: admin }, transports: ['websocket'] });
    const seen: { seq: number; events: [number, string, string][] }[] = [];
    watcher.on('record_out', (m: { seq: number; events: [number, string, string][] }) => seen.push(m));
    const terminated = new Promise((resolve) => watcher.on('tunnel_terminated', resolve));
    watcher.emit('new_record_attach', { recording_id: rec.id, replay: true });
    await eventually(
      async () => seen.filter((m) => m.seq > 0).length,
      (n) => n >= 2,
      10_000,
    );
    // The replay (seq 0) may arrive after the first live chunk: watchers order by seq.
    expect(seen.some((m) => m.seq === 0)).toBe(true);
    const live1 = seen.filter((m) => m.seq > 0).map((m) => m.seq);
    expect(live1).toEqual([...live1].sort((a, b) => a - b));
    const asked = Date.now();
    const res = await server.call<{ message: string }>('DELETE', `/api/tunnel/${rec.id}`, {
      token: admin,
      headers: { 'host-id': agentId },
    });
    expect(res.body.message).toBe('Session terminated');
    const ended = await live.done;
    expect(Date.now() - asked).toBeLessThan(1000);
    expect(ended.stderr).toContain('terminated by admin@example.test');
    await terminated;
    watcher.close();
    const row = await server.services.repositories.recordings.find(rec.id);
    expect(row).toMatchObject({ endReason: 'terminated', terminatedBy: 'admin@example.test' });
  });

  it('the termination reason reaches a client that was too busy to read before the gateway closed', async () => {
    // The client is stopped (SIGSTOP) while the session is terminated, for longer than the gateway
    // waits for it to close on its own; it then reads the reason, the close and the disconnect at
    // once. ssh2's own end() sent a disconnect with no text, and OpenSSH exits on it before writing
    // the stderr it had just read: "Received disconnect … 11:" and no reason (issue 20).
    const before = new Set((await recordings()).map((r) => r.id));
    const live = ssh.call(null, gw(vera.file, 'vera@example.test', 'while true; do echo busy; sleep 0.1; done'));
    const rec = (await eventually(recordings, (l) => l.some((r) => r.ended_on === null && !before.has(r.id)))).find(
      (r) => r.ended_on === null && !before.has(r.id),
    )!;
    await eventually(
      async () => live.child.pid,
      (pid) => pid !== undefined,
    );
    live.child.kill('SIGSTOP');
    try {
      const res = await server.call<{ message: string }>('DELETE', `/api/tunnel/${rec.id}`, {
        token: admin,
        headers: { 'host-id': agentId },
      });
      expect(res.body.message).toBe('Session terminated');
      await new Promise((resolve) => setTimeout(resolve, 1600));
    } finally {
      live.child.kill('SIGCONT');
    }
    const ended = await live.done;
    expect(ended.code).not.toBe(0);
    expect(ended.stderr).toContain('terminated by admin@example.test');
  });

  it('refuses watching to someone who may not reach the host', async () => {
    const rec = (await recordings())[0]!;
    await server.createUser('xia@example.test', 'password-123', { permissions: ['list-recording'] });
    const watcher = connectSocket(server.url, {
      auth: { token: await server.login('xia@example.test', 'password-123') },
      transports: ['websocket'],
    });
    const refused = new Promise<{ message: string }>((resolve) => watcher.on('record_attach_error', resolve));
    watcher.emit('new_record_attach', { recording_id: rec.id, replay: true });
    expect((await refused).message).toMatch(/no session with that id that you may watch/);
    watcher.close();
  });

  it('ends a session idle for idle_timeout_minutes, telling the user, and records why', async () => {
    const before = new Set((await recordings()).map((r) => r.id));
    const saved = await server.call('POST', '/api/settings', { token: admin, body: { idle_timeout_minutes: 1 } });
    expect(saved.status).toBe(200);
    try {
      // Prints once, then neither reads nor writes: idle after one (test) minute.
      const run = await ssh.call(null, gw(vera.file, 'vera@example.test', 'echo idle-start; sleep 30')).done;
      expect(run.stdout).toContain('idle-start');
      expect(run.stderr).toContain('This session was idle for a minute and has been closed.');
      expect(run.ms).toBeGreaterThanOrEqual(2000);
      expect(run.ms).toBeLessThan(15_000);
      const rec = (await eventually(recordings, (l) => l.some((r) => !before.has(r.id) && r.ended_on))).find(
        (r) => !before.has(r.id),
      )!;
      expect(rec.end_reason).toBe('idle');
      // A session that keeps printing is not idle, however long it runs.
      const busy = await ssh.call(
        null,
        gw(vera.file, 'vera@example.test', 'for i in $(seq 1 15); do echo busy-$i; sleep 0.2; done'),
      ).done;
      expect(busy.code).toBe(0);
      expect(busy.stdout).toContain('busy-15');
    } finally {
      await server.call('POST', '/api/settings', { token: admin, body: { idle_timeout_minutes: 0 } });
    }
  });

  // ssh -L (allowed by the definition, whitelisted ports only, recorded, terminable): port-forward.security.test.ts.

  it('ends the session when the agent dies, keeping the recording up to the last flush', async () => {
    // This session's recording only: the previous test's may not be finalised yet.
    const before = new Set((await recordings()).map((r) => r.id));
    const live = ssh.call(
      null,
      gw(vera.file, 'vera@example.test', 'for i in $(seq 1 300); do echo beat-$i; sleep 0.1; done'),
    );
    const rec = (await eventually(recordings, (l) => l.some((r) => r.ended_on === null && !before.has(r.id)))).find(
      (r) => r.ended_on === null && !before.has(r.id),
    )!;
    const row = await eventually(
      () => server.services.repositories.recordings.find(rec.id),
      (r) => (r?.chunks ?? 0) >= 2,
    );
    agent.child.kill('SIGKILL');
    const ended = await live.done;
    expect(ended.code).not.toBe(0);
    const finished = await eventually(
      () => server.services.repositories.recordings.find(rec.id),
      (r) => r?.endedOn !== null,
    );
    expect(finished?.endReason).toBe('host-disconnected');
    expect(fs.readFileSync(row!.storagePath, 'utf8')).toContain('beat-1');
  }, 40_000);
});

function run(command: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}
