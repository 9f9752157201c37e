import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type APIRequestContext, expect } from '@playwright/test';
import { TEST_PASSWORD, adminToken, callApi, unique } from '../identity-helpers.js';
import { type RunningAgent, agentHostname, appliedConfig, startAgent } from './agent-process.js';

/**
 * Sessions made the way users make them, for browser tests: OpenSSH `ssh` → the e2e server's SSH
 * gateway (E2E_PORT + 1000) → a real agent process → Debian's sshd on loopback.
 */

/** A real sshd (Debian's openssh-server) on a free loopback port; logins go to the current OS user. */
export interface Sshd {
  port: number;
  login: string;
  authorizeKey(publicKey: string): void;
  stop(): void;
}

/** Everything a test needs to open gateway sessions: the host, its definition and an admitted user. */
export interface Gateway {
  agent: RunningAgent;
  sshd: Sshd;
  hostname: string;
  hostId: string;
  definition: { id: string; name: string };
  /** The admitted user: email, password and private key file. */
  user: { email: string; password: string; keyFile: string };
  /** Opens an ssh session through the gateway as the user, running `command` (a PTY with -tt when interactive). */
  ssh(command: string, options?: SshOptions): SshSession;
  /** Stops sshd and the agent and removes their files. */
  stop(): void;
}

/** How the test user's ssh client runs. */
export interface SshOptions {
  /** A PTY (-tt), for a shell fed from stdin. */
  interactive?: boolean;
  input?: string;
  /** A PTY of this size (the client runs in a terminal of it, as on a large monitor). */
  size?: { cols: number; rows: number };
}

/** A running ssh client. */
export interface SshSession {
  child: ChildProcess;
  output: () => string;
  /** Settles when the client exits, with its exit code and everything it printed. */
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** The gateway's SSH port of the e2e server (start-server.sh: PORT + 1000). */
export function gatewayPort(): number {
  return Number(process.env.E2E_SSH_PORT ?? Number(process.env.E2E_PORT ?? 18480) + 1000);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Starts sshd with its own host key and authorized_keys file, public keys only. */
export async function startSshd(): Promise<Sshd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-e2e-sshd-'));
  fs.chmodSync(dir, 0o755);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host_key')]);
  const keys = path.join(dir, 'authorized_keys');
  fs.writeFileSync(keys, '', { mode: 0o600 });
  const port = await freePort();
  fs.mkdirSync('/run/sshd', { recursive: true });
  const config = [
    `Port ${port}`,
    'ListenAddress 127.0.0.1',
    `HostKey ${path.join(dir, 'host_key')}`,
    `PidFile ${path.join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${keys}`,
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PubkeyAuthentication yes',
    'PermitRootLogin prohibit-password',
    'StrictModes no',
    'UsePAM no',
    // sftp (and the default scp, which speaks it) for the evidence test's file transfers.
    'Subsystem sftp internal-sftp',
    'LogLevel ERROR',
  ];
  fs.writeFileSync(path.join(dir, 'sshd_config'), config.join('\n'));
  const child = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', path.join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  for (let i = 0; i < 100 && !(await listening(port)); i += 1) {
    if (child.exitCode !== null) throw new Error(`sshd exited: ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    login: os.userInfo().username,
    authorizeKey: (publicKey) => fs.appendFileSync(keys, `${publicKey.trim()}\n`),
    stop: () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs OpenSSH's ssh client with the given arguments (no host key prompts, keys only). */
export function runSsh(args: string[], input?: string, size?: { cols: number; rows: number }): SshSession {
  const sshArgs = [
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'BatchMode=yes',
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    'LogLevel=ERROR',
    ...args,
  ];
  // A sized terminal: util-linux script gives ssh a PTY, stty sizes it, and ssh asks the gateway
  // for a PTY of that size (the recording's width and height).
  const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
  const child = size
    ? spawn(
        'script',
        [
          '-qfec',
          `stty cols ${String(size.cols)} rows ${String(size.rows)}; exec ssh -tt ${sshArgs.map(quote).join(' ')}`,
          '/dev/null',
        ],
        { stdio: ['pipe', 'pipe', 'pipe'] },
      )
    : spawn('ssh', sshArgs, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  if (input !== undefined) child.stdin?.write(input);
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
  return { child, output: () => stdout + stderr, done };
}

type Json = Record<string, unknown>;

async function json<T>(response: Awaited<ReturnType<APIRequestContext['fetch']>>, status = 200): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

/**
 * Enrols a real agent, starts sshd, whitelists its port on the agent, makes an ssh definition to it
 * (its generated public key authorised on sshd) and a user with an SSH key who is admitted.
 */
export async function startGateway(request: APIRequestContext, server: string, prefix = 'e2e-gw'): Promise<Gateway> {
  const admin = await adminToken(request);
  const { key } = await json<{ key: string }>(
    await callApi(request, admin, 'POST', '/api/apikey', { description: unique(prefix) }),
    201,
  );
  const hostname = agentHostname(prefix);
  const agent = startAgent(server, key, hostname);
  let hostId = '';
  await expect
    .poll(
      async () => {
        const { agents } = await json<{ agents: { id: string; hostname: string; connected: boolean }[] }>(
          await callApi(request, admin, 'GET', '/api/agent'),
        );
        hostId = agents.find((a) => a.hostname === hostname && a.connected)?.id ?? '';
        return hostId;
      },
      { timeout: 20_000, message: 'the agent connects' },
    )
    .not.toBe('');
  const sshd = await startSshd();
  await json(await callApi(request, admin, 'POST', `/api/agent/${hostId}/config`, { whitelist: [sshd.port] }));
  // The agent enforces its whitelist too: wait until it has applied the new one.
  await expect
    .poll(() => (appliedConfig(agent)?.whitelist as number[] | undefined)?.includes(sshd.port) ?? false, {
      timeout: 15_000,
      message: 'the agent applies the whitelist',
    })
    .toBe(true);
  const name = unique(`${prefix}-shell`);
  const { definition } = await json<{ definition: { id: string; public_key: string } }>(
    await callApi(request, admin, 'POST', '/api/tunneldefinition/ssh', {
      name,
      host_id: hostId,
      port: sshd.port,
      ssh_login: sshd.login,
    }),
    201,
  );
  sshd.authorizeKey(definition.public_key);

  const email = `${unique(prefix)}@e2e.gatehouse.test`;
  await json<Json>(await callApi(request, admin, 'POST', '/api/user', { email, password: TEST_PASSWORD }), 201);
  const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-e2e-keys-'));
  const keyFile = path.join(keyDir, 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', email, '-f', keyFile]);
  const login = await request.post('/api/login?include_auth_token', { data: { email, password: TEST_PASSWORD } });
  const userToken = (await json<{ response: { user: { authentication_token: string } } }>(login)).response.user
    .authentication_token;
  await json<Json>(
    await callApi(request, userToken, 'POST', '/api/user/me/ssh-keys', {
      name: 'e2e laptop',
      public_key: fs.readFileSync(`${keyFile}.pub`, 'utf8').trim(),
    }),
    201,
  );
  const { users } = await json<{ users: { id: string; email: string }[] }>(
    await callApi(request, admin, 'GET', `/api/user?q=${encodeURIComponent(email)}`),
  );
  const userId = users.find((u) => u.email === email)?.id ?? '';
  await json<Json>(
    await callApi(request, admin, 'PUT', `/api/tunneldefinition/${definition.id}/users`, { users: [userId] }),
  );

  const sessions: SshSession[] = [];
  return {
    agent,
    sshd,
    hostname,
    hostId,
    definition: { id: definition.id, name },
    user: { email, password: TEST_PASSWORD, keyFile },
    ssh: (command, options = {}) => {
      const session = runSsh(
        [
          ...(options.interactive ? ['-tt'] : []),
          '-p',
          String(gatewayPort()),
          '-i',
          keyFile,
          `${email}@${hostname}@127.0.0.1`,
          ...(command ? [command] : []),
        ],
        options.input,
        options.size,
      );
      sessions.push(session);
      return session;
    },
    stop: () => {
      for (const session of sessions)
        if (session.child.exitCode === null && session.child.signalCode === null) session.child.kill('SIGKILL');
      if (agent.child.exitCode === null) agent.child.kill('SIGKILL');
      sshd.stop();
      fs.rmSync(keyDir, { recursive: true, force: true });
    },
  };
}

/** The id of the user's newest recording: the session a test has just run through the gateway. */
export async function newestRecordingId(request: APIRequestContext, email: string): Promise<string> {
  const res = await callApi(
    request,
    await adminToken(request),
    'GET',
    `/api/recording?user=${encodeURIComponent(email)}&limit=1`,
  );
  return ((await res.json()) as { recordings: { id: string }[] }).recordings[0]?.id ?? '';
}
