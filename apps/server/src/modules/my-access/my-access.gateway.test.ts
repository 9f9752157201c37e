import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AccessEntry, MyAccess } from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentProcess } from '../../test/agent-process.js';
import { enrolGatewayHost } from '../../test/gateway-host.js';
import { type TestServer, startTestServer } from '../../test/harness.js';
import { type Sshd, SSH_CLIENT_OPTIONS, startSshd, userKey } from '../../test/sshd.js';

const TUNNEL_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../agent/dist/tunnel-cli.js');

/** Runs a command line through /bin/sh, as a user pasting it would; answers its exit code and output. */
function sh(
  line: string,
  options: { input?: string; timeoutMs?: number } = {},
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', line], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.stdin.end(options.input ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/**
 * The commands My access hands out are run as they are, with the real OpenSSH ssh, scp and sftp
 * and the real `gatehouse tunnel`, against the real gateway, agent and sshd. Only what a user's
 * own machine adds is added: their key and "do not ask about host keys" (through `-F` with a
 * config file, so the command line itself is the page's, word for word).
 */
describe('the commands of My access connect', () => {
  let server: TestServer;
  let sshd: Sshd;
  let agent: AgentProcess;
  let entries: AccessEntry[];
  let tunnel: ChildProcess | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-my-access-'));
  const key = userKey(dir, 'rita');
  const user = { email: 'rita@example.test', password: 'rita-password-1', publicKey: key.publicKey };
  const clientConfig = path.join(dir, 'client_config');

  beforeAll(async () => {
    // No public URL: the tunnel's --server is the address this caller reached the console at.
    server = await startTestServer('pglite', { publicUrl: undefined });
    const admin = await server.login();
    sshd = await startSshd();
    const host = await enrolGatewayHost(server, admin, sshd, { hostname: 'web-01', definition: 'web', user });
    agent = host.agent;
    sshd.authorizeKey(key.publicKey);
    const generic = await server.call<{ definition: { id: string } }>('POST', '/api/tunneldefinition/generic', {
      token: admin,
      body: { name: 'web sshd', host_id: host.agentId, port: sshd.port },
    });
    const users = await server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', { token: admin });
    await server.call('PUT', `/api/tunneldefinition/${generic.body.definition.id}/users`, {
      token: admin,
      body: { users: [users.body.users.find((u) => u.email === user.email)!.id] },
    });
    const mine = await server.call<MyAccess>('GET', '/api/me/access', {
      token: await server.login(user.email, user.password),
    });
    entries = mine.body.entries;
    const options: string[] = [];
    for (let i = 0; i < SSH_CLIENT_OPTIONS.length; i += 2) options.push(SSH_CLIENT_OPTIONS[i + 1]!.replace('=', ' '));
    fs.writeFileSync(clientConfig, [`IdentityFile ${key.file}`, ...options, ''].join('\n'));
  }, 120_000);
  afterAll(async () => {
    tunnel?.kill('SIGTERM');
    agent?.child.kill('SIGKILL');
    sshd?.stop();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const ssh = () => entries.find((e) => e.definition.type === 'ssh')!.commands;

  it('ssh: the command opens a shell on the host through the gateway', async () => {
    expect(ssh().ssh).toBe(`ssh -p ${server.sshPort} rita@example.test@web-01@127.0.0.1`);
    const run = await sh(`${ssh().ssh!.replace(/^ssh /, `ssh -F ${clientConfig} `)} 'echo reached-$((6*7))'`);
    expect(run.out).toContain('reached-42');
    expect(run.code).toBe(0);
  });

  it('scp and sftp: the commands copy a file to the host and list it', async () => {
    const file = path.join(dir, `hello-${process.pid}.txt`);
    fs.writeFileSync(file, 'hello through the gateway\n');
    const scp = ssh().scp!.replace(/^scp /, `scp -F ${clientConfig} `).replace(' FILE ', ` ${file} `);
    const copied = await sh(scp);
    expect(copied.out).toBe('');
    expect(copied.code).toBe(0);
    // scp's empty remote path is the login's home folder: sftp finds the file there.
    const sftp = await sh(`${ssh().sftp!.replace(/^sftp /, `sftp -F ${clientConfig} `)}`, {
      input: `ls -1 hello-${process.pid}.txt\nrm hello-${process.pid}.txt\n`,
    });
    expect(sftp.out).toContain(`hello-${process.pid}.txt`);
    expect(sftp.code).toBe(0);
  });

  it('~/.ssh/config: the Host entry makes `ssh ALIAS` reach the host', async () => {
    const config = path.join(dir, 'config');
    fs.writeFileSync(config, `${ssh().ssh_config!}\n${fs.readFileSync(clientConfig, 'utf8')}`);
    const run = await sh(`ssh -F ${config} ${ssh().ssh_alias!} 'echo alias-$((40+2))'`);
    expect(run.out).toContain('alias-42');
    expect(run.code).toBe(0);
  });

  it('gatehouse tunnel: the command asks for the password and relays a local port to the host', async () => {
    const entry = entries.find((e) => e.definition.type === 'generic')!;
    expect(entry.commands.tunnel).toBe(
      `npx gatehouse tunnel 'web sshd' --server ${server.url} --email rita@example.test`,
    );
    // `npx gatehouse` is this workspace's launcher of dist/tunnel-cli.js; the password comes on stdin.
    const line = entry.commands.tunnel!.replace(/^npx gatehouse /, `exec ${process.execPath} ${TUNNEL_CLI} `);
    tunnel = spawn('/bin/sh', ['-c', line], { stdio: ['pipe', 'pipe', 'pipe'] });
    tunnel.stdin?.write(`${user.password}\n`);
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      const read = (c: Buffer) => {
        out += c.toString();
        const found = /listening on [\d.]+:(\d+)/.exec(out)?.[1];
        if (found) resolve(Number(found));
      };
      tunnel?.stdout?.on('data', read);
      tunnel?.stderr?.on('data', read);
      tunnel?.on('exit', () => reject(new Error(`gatehouse tunnel ended: ${out}`)));
    });
    // The tunnel reaches the host's sshd itself: rita signs in there with her own key.
    const run = await sh(`ssh -F ${clientConfig} -p ${port} ${sshd.login}@127.0.0.1 'echo tunnelled-$((40+2))'`);
    expect(run.out).toContain('tunnelled-42');
  });
});
