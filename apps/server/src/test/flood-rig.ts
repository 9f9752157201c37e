import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentProcess, eventually, startAgent } from './agent-process.js';
import { SSH_CLIENT_OPTIONS, type Sshd, startSshd, userKey } from './sshd.js';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/main.js');
const ADMIN = { email: 'root@example.test', password: 'flood-password-1' };
export const MiB = 1024 * 1024;

/**
 * The built server as a process of its own (so its memory is measured alone), a real agent and
 * Debian's sshd behind it, and one SSH definition admitting the first administrator: what the
 * flood and slow-reader tests need. Everything on loopback.
 */
export interface FloodRig {
  server: ChildProcess;
  /** The server's data folder (recordings under recordings/, the embedded database under pglite/). */
  dataDir: string;
  url: string;
  sshPort: number;
  /** The administrator's token. */
  token: string;
  agentId: string;
  /** The SSH definition admitting the administrator, and the port of its sshd. */
  definitionId: string;
  sshdPort: number;
  /** The administrator's private key file (registered for the gateway) and login. */
  keyFile: string;
  login: string;
  /** Lines the server printed (LOG_LEVEL info: pino JSON). */
  output(): string;
  /** The server's resident memory now (bytes). */
  rss(): number;
  /** Bytes of every recording's cast file so far: how much output the gateway took from hosts. */
  recordedBytes(): number;
  api<T>(method: string, pathName: string, body?: unknown): Promise<T>;
  /** `ssh` arguments for a session on the rig's host running `command`. */
  gw(...command: string[]): string[];
  stop(): void;
}

/**
 * Starts the built server on a fresh data folder, with an agent, sshd and a definition; `env`
 * adds to the server's environment.
 */
export async function startFloodRig(hostname = 'flood-01', env: Record<string, string> = {}): Promise<FloodRig> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-flood-'));
  const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-flood-keys-'));
  const server = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      GATEHOUSE_DATA_DIR: dataDir,
      PORT: '0',
      GATEHOUSE_SSH_PORT: '0',
      LOG_LEVEL: 'info',
      GATEHOUSE_ADMIN_EMAIL: ADMIN.email,
      GATEHOUSE_ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  server.stdout.on('data', (c: Buffer) => (out += c.toString()));
  server.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const { url, sshPort } = await new Promise<{ url: string; sshPort: number }>((resolve, reject) => {
    server.stdout.on('data', () => {
      const found = /running at (\S+)/.exec(out)?.[1];
      const port = /ssh -p (\d+)/.exec(out)?.[1];
      if (found && port) resolve({ url: found, sshPort: Number(port) });
    });
    server.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  let sshd: Sshd | undefined;
  let agent: AgentProcess | undefined;
  const stop = () => {
    server.kill('SIGKILL');
    agent?.child.kill('SIGKILL');
    sshd?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(keys, { recursive: true, force: true });
  };
  try {
    let token = '';
    const api = async <T>(method: string, pathName: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${url}${pathName}`, {
        method,
        headers: {
          ...(token ? { 'authentication-token': token } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return (await res.json()) as T;
    };
    token = (await api<{ response: { user: { authentication_token: string } } }>('POST', '/api/login', ADMIN)).response
      .user.authentication_token;
    sshd = await startSshd();
    const { key } = await api<{ key: string }>('POST', '/api/apikey', { description: 'flood' });
    agent = startAgent({ server: url, key, hostname });
    const agentId = (
      await eventually(
        () => api<{ agents: { id: string; connected: boolean }[] }>('GET', '/api/agent'),
        (r) => r.agents[0]?.connected === true,
      )
    ).agents[0]!.id;
    await api('POST', `/api/agent/${agentId}/config`, { whitelist: [sshd.port] });
    const stateDir = agent.stateDir;
    const sshdPort = String(sshd.port);
    await eventually(
      async () => fs.readFileSync(path.join(stateDir, 'config.json'), 'utf8'),
      (text) => text.includes(sshdPort),
    );
    const def = await api<{ definition: { id: string; public_key: string } }>('POST', '/api/tunneldefinition/ssh', {
      name: 'flood',
      host_id: agentId,
      port: sshd.port,
      ssh_login: sshd.login,
    });
    sshd.authorizeKey(def.definition.public_key);
    const me = userKey(keys, 'root-key');
    await api('POST', '/api/user/me/ssh-keys', { name: 'k', public_key: me.publicKey });
    const users = await api<{ users: { id: string }[] }>('GET', '/api/user');
    await api('PUT', `/api/tunneldefinition/${def.definition.id}/users`, { users: [users.users[0]!.id] });
    const login = `${ADMIN.email}@${hostname}`;
    return {
      server,
      dataDir,
      url,
      sshPort,
      token,
      agentId,
      definitionId: def.definition.id,
      sshdPort: sshd.port,
      keyFile: me.file,
      login,
      output: () => out,
      rss: () => {
        const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'));
        return Number(match?.[1] ?? 0) * 1024;
      },
      recordedBytes: () => {
        const dir = path.join(dataDir, 'recordings');
        if (!fs.existsSync(dir)) return 0;
        return (fs.readdirSync(dir, { recursive: true }) as string[])
          .filter((name) => name.endsWith('.cast'))
          .reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
      },
      api,
      gw: (...command) => ['-p', String(sshPort), '-i', me.file, `${login}@127.0.0.1`, ...command],
      stop,
    };
  } catch (error) {
    stop();
    throw error;
  }
}

/** The real OpenSSH client with its stdin open; its stdout kept, or dropped for a flood. */
export function sshSession(args: string[], keepOutput: boolean) {
  const child = spawn('ssh', [...SSH_CLIENT_OPTIONS, ...args], {
    stdio: ['pipe', keepOutput ? 'pipe' : 'ignore', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/**
 * Types a line into a session running `cat` every `everyMs` until stopped, noting how long each
 * took to come back through the gateway: what another session's user feels during a flood.
 */
export function typist(session: ReturnType<typeof sshSession>, everyMs = 250) {
  const delays: number[] = [];
  let typing = true;
  const done = (async () => {
    for (let i = 0; typing; i += 1) {
      const line = `key-${i}`;
      const sent = Date.now();
      session.child.stdin!.write(`${line}\n`);
      await eventually(
        async () => session.stdout().includes(`${line}\n`),
        (ok) => ok,
        20_000,
      );
      delays.push(Date.now() - sent);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    delays,
    stop: async () => {
      typing = false;
      await done;
      return delays;
    },
  };
}

/** Samples a value every 50 ms and keeps the largest. */
export function peakOf(sample: () => number) {
  let peak = sample();
  const timer = setInterval(() => (peak = Math.max(peak, sample())), 50);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, sample());
    },
  };
}
