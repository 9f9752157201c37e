import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentProcess, eventually } from '../../test/agent-process.js';
import { enrolGatewayHost } from '../../test/gateway-host.js';
import { type TestServer, startTestServer } from '../../test/harness.js';
import { type Sshd, ssh, startSshd, userKey } from '../../test/sshd.js';
import { execStart, fakeSystemctl, run, runPiped, scratch } from './install-rig.js';

interface Listed {
  agents: { id: string; hostname: string; connected: boolean; version: string | null }[];
}

const systemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('the agent as a product: served file and install script', () => {
  let server: TestServer;
  let admin: string;
  let key: string;
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  /** The served file, saved alone in a folder with no node_modules. */
  let servedFile = '';
  let sshd: Sshd | undefined;
  let relayAgent: AgentProcess | undefined;

  beforeAll(async () => {
    // No public URL configured: the script names the server as this request reached it.
    server = await startTestServer('pglite', { publicUrl: undefined });
    admin = await server.login();
    key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'install' } })
    ).body.key;
  }, 60_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    relayAgent?.child.kill('SIGKILL');
    sshd?.stop();
    await server.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves one file, with its SHA-256 and version, that runs with plain node and no node_modules', async () => {
    const manifest = await server.call<{ sha256: string; version: string; bytes: number; url: string }>(
      'GET',
      '/api/agent/manifest',
    );
    expect(manifest.status).toBe(200);
    const res = await fetch(`${server.url}${manifest.body.url}`);
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(sha).toBe(manifest.body.sha256);
    expect(res.headers.get('x-gatehouse-agent-sha256')).toBe(sha);
    expect(res.headers.get('x-gatehouse-agent-version')).toBe(manifest.body.version);
    expect(bytes.length).toBe(manifest.body.bytes);

    // A folder outside the repository: no node_modules in it or above it.
    const dir = scratch('gh-agentfile-');
    dirs.push(dir);
    for (let d = dir; d !== path.dirname(d); d = path.dirname(d)) {
      expect(fs.existsSync(path.join(d, 'node_modules')), d).toBe(false);
    }
    fs.writeFileSync(path.join(dir, 'gatehouse-agent.mjs'), bytes);
    servedFile = path.join(dir, 'gatehouse-agent.mjs');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir };
    const help = await run(process.execPath, ['gatehouse-agent.mjs', '--help'], env, undefined, dir);
    expect(help.stderr).toBe('');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: gatehouse-agent --server URL');
    const version = await run(process.execPath, ['gatehouse-agent.mjs', '--version'], env, undefined, dir);
    expect(version.stdout.trim()).toBe(manifest.body.version);
  });

  it('the served file is the whole agent: OpenSSH through the gateway reaches sshd through it', async () => {
    expect(servedFile).not.toBe('');
    sshd = await startSshd();
    const dir = scratch('gh-relay-');
    dirs.push(dir);
    const user = userKey(dir, 'rita');
    ({ agent: relayAgent } = await enrolGatewayHost(server, admin, sshd, {
      hostname: 'bundled-host',
      definition: 'bundled-host shell',
      user: { email: 'rita@example.test', password: 'password-123', publicKey: user.publicKey },
      agentFile: servedFile,
    }));
    const session = await ssh([
      '-p',
      String(server.sshPort),
      '-i',
      user.file,
      'rita@example.test@bundled-host@127.0.0.1',
      'echo relayed-$((6*7))',
    ]).done;
    expect(session.code, session.stderr).toBe(0);
    expect(session.stdout).toContain('relayed-42');
    relayAgent.child.kill('SIGTERM');
  }, 60_000);

  it('installs under a root prefix: file checked, unit verified, enrolled for real; ExecStart connects', async () => {
    const script = (await server.call<string>('GET', '/api/agent/install.sh')).body;
    expect(script).toContain(`GATEHOUSE_SERVER_URL='${server.url}'`);
    const dir = scratch('gh-install-');
    dirs.push(dir);
    const root = path.join(dir, 'root');
    const systemctl = fakeSystemctl(dir);
    const env = { PATH: `${systemctl.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, GATEHOUSE_INSTALL_ROOT: root };

    const first = await runPiped(script, ['--key', key, '--hostname', 'installed-host'], env);
    expect(first.stderr).toContain('enrolled with');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr + first.stdout).not.toContain(key);

    const file = path.join(root, 'opt/gatehouse-agent/gatehouse-agent.mjs');
    const manifest = await server.call<{ sha256: string }>('GET', '/api/agent/manifest');
    expect(createHash('sha256').update(fs.readFileSync(file)).digest('hex')).toBe(manifest.body.sha256);
    const state = path.join(root, 'var/lib/gatehouse-agent');
    expect(fs.statSync(state).mode & 0o777).toBe(0o700);
    const identity = JSON.parse(fs.readFileSync(path.join(state, 'identity.json'), 'utf8')) as { id: string };

    const unitPath = path.join(root, 'etc/systemd/system/gatehouse-agent.service');
    const unit = fs.readFileSync(unitPath, 'utf8');
    for (const line of [
      'User=gatehouse-agent',
      'Restart=always',
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      `ReadWritePaths=${state}`,
      'PrivateTmp=yes',
      'WantedBy=multi-user.target',
    ]) {
      expect(unit).toContain(line);
    }
    expect(unit).not.toContain(key);
    expect(systemctl.calls()).toEqual(['daemon-reload', 'enable --now gatehouse-agent.service']);

    if (systemdAnalyze) {
      const verified = await run('systemd-analyze', ['verify', '--man=no', unitPath], { PATH: process.env.PATH });
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stderr).not.toMatch(/gatehouse-agent\.service/);
    } else {
      console.warn('systemd-analyze is not installed here: the unit was not verified by systemd (skipped)');
    }

    // Enrolled for real: the host is listed, not yet connected.
    const listed = await server.call<Listed>('GET', '/api/agent', { token: admin });
    const host = listed.body.agents.find((a) => a.hostname === 'installed-host');
    expect(host?.id).toBe(identity.id);

    // systemd's part, done by hand: run ExecStart (as this user: the test is not systemd).
    const [command, ...args] = execStart(unit);
    const agent = spawn(command!, args, { stdio: 'ignore' });
    children.push(agent);
    await eventually(
      async () => (await server.call<Listed>('GET', '/api/agent', { token: admin })).body.agents,
      (agents) => agents.some((a) => a.hostname === 'installed-host' && a.connected),
    );
    agent.kill('SIGTERM');

    // Run again: an upgrade in place. No key needed, the same identity, the service restarted.
    fs.writeFileSync(file, '// an older agent\n');
    const again = await runPiped(script, [], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('already enrolled');
    expect(again.stderr).toContain('upgraded');
    expect(createHash('sha256').update(fs.readFileSync(file)).digest('hex')).toBe(manifest.body.sha256);
    expect(fs.readFileSync(unitPath, 'utf8')).toMatch(/^ExecStart=.* --hostname installed-host$/m);
    const after = JSON.parse(fs.readFileSync(path.join(state, 'identity.json'), 'utf8')) as { id: string };
    expect(after.id).toBe(identity.id);
    expect(systemctl.calls().slice(2)).toEqual([
      'daemon-reload',
      'enable --now gatehouse-agent.service',
      'restart gatehouse-agent.service',
    ]);
    const hosts = (await server.call<Listed>('GET', '/api/agent', { token: admin })).body.agents;
    expect(hosts.filter((a) => a.hostname === 'installed-host')).toHaveLength(1);
  }, 60_000);

  it('refuses clearly: no key on a host not enrolled, a wrong key, a checksum that does not match', async () => {
    const script = (await server.call<string>('GET', '/api/agent/install.sh')).body;
    const dir = scratch('gh-install-');
    dirs.push(dir);
    const systemctl = fakeSystemctl(dir);
    const env = {
      PATH: `${systemctl.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      GATEHOUSE_INSTALL_ROOT: path.join(dir, 'root'),
    };
    const none = await runPiped(script, [], env);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('not enrolled yet: pass --key');
    const wrong = await runPiped(script, ['--key', 'ghk_not-a-real-key'], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('refused the registration key');
    const tampered = script.replace(/GATEHOUSE_AGENT_SHA256='[0-9a-f]+'/, `GATEHOUSE_AGENT_SHA256='${'0'.repeat(64)}'`);
    const bad = await runPiped(tampered, ['--key', key], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('SHA-256');
    expect(systemctl.calls()).toEqual([]);
  }, 30_000);
});
