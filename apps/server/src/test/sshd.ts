import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A real OpenSSH sshd (Debian's openssh-server) on loopback, for the gateway tests. */
export interface Sshd {
  port: number;
  login: string;
  authorizeKey(publicKey: string): void;
  /** What sshd printed so far (its log: LogLevel ERROR unless started with another). */
  log(): string;
  stop(): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts sshd with its own host key and authorized_keys file; logins go to the current user. */
export async function startSshd(options: { logLevel?: 'ERROR' | 'DEBUG1' } = {}): Promise<Sshd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-sshd-'));
  fs.chmodSync(dir, 0o755);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host_key')]);
  const keys = path.join(dir, 'authorized_keys');
  fs.writeFileSync(keys, '', { mode: 0o600 });
  const port = await freePort();
  fs.mkdirSync('/run/sshd', { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'sshd_config'),
    [
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
      'Subsystem sftp internal-sftp',
      `LogLevel ${options.logLevel ?? 'ERROR'}`,
    ].join('\n'),
  );
  const child: ChildProcess = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', path.join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (c: Buffer) => (errors += c.toString()));
  for (let i = 0; i < 100; i += 1) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (child.exitCode !== null) throw new Error(`sshd exited: ${errors}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    login: os.userInfo().username,
    authorizeKey: (publicKey) => fs.appendFileSync(keys, `${publicKey.trim()}\n`),
    log: () => errors,
    stop: () => {
      child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A user key pair made by ssh-keygen; answers the private key file and the public line. */
export function userKey(dir: string, name: string): { file: string; publicKey: string } {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file]);
  return { file, publicKey: fs.readFileSync(`${file}.pub`, 'utf8').trim() };
}

/** What every test's ssh client is run with: no host-key prompts or files, no agent keys, no chatter. */
export const SSH_CLIENT_OPTIONS = [
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
] as const;

/** Runs the real OpenSSH ssh client; answers its exit code and output. */
export function ssh(
  args: string[],
  options: { input?: string; timeoutMs?: number } = {},
): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> } {
  const started = Date.now();
  const child = spawn('ssh', [...SSH_CLIENT_OPTIONS, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  if (options.input !== undefined) child.stdin?.end(options.input);
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
  const done = new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    }),
  );
  return { child, done };
}
