import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built server (`npm run build`), which the tests of whole processes start. */
export const BUILT_SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/main.js');

/** A server process started by a test, once it printed where it listens. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  sshPort: number;
  /** When it printed its URL (ms since the epoch). */
  ready: number;
}

/**
 * Starts the built server as its own process (a test can then kill it with SIGKILL): ports 0 and
 * LOG_LEVEL warn unless `env` says otherwise. Answers once it printed its URL and SSH port; rejects
 * with what it printed when it exits first.
 */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILT_SERVER], {
      env: { ...process.env, PORT: '0', GATEHOUSE_SSH_PORT: '0', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const url = /running at (\S+)/.exec(out)?.[1];
      const port = /ssh -p (\d+)/.exec(out)?.[1];
      if (url && port) resolve({ child, url, sshPort: Number(port), ready: Date.now() });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

/** One JSON call to a server, answering its parsed body (whatever the status). */
export async function api<T>(
  url: string,
  method: string,
  pathName: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${url}${pathName}`, {
    method,
    headers: {
      ...(token ? { 'authentication-token': token } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as T;
}

/** A loopback port nobody listens on now. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
