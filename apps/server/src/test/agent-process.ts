import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../agent/dist/cli.js');

/** A real gatehouse-agent process (the built CLI), with its output and exit. */
export interface AgentProcess {
  child: ChildProcess;
  stateDir: string;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts the built agent against a server, in its own state folder unless one is given. */
export function startAgent(options: {
  server: string;
  key?: string;
  hostname: string;
  stateDir?: string;
  /** More options, such as --capture-source. */
  args?: string[];
  /** Another agent file to run, such as the one-file agent the server serves (default dist/cli.js). */
  cli?: string;
  /** More environment variables, such as the XAUTHORITY of the display it films. */
  env?: NodeJS.ProcessEnv;
}): AgentProcess {
  const cli = options.cli ?? CLI;
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run npm run build`);
  const stateDir = options.stateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gh-agent-'));
  const args = [cli, '--server', options.server, '--state-dir', stateDir, '--hostname', options.hostname];
  if (options.key) args.push('--key', options.key);
  args.push(...(options.args ?? []));
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stateDir, output: () => output, exited };
}

/** Polls until the check answers true, or fails after the timeout with the last value. */
export async function eventually<T>(
  check: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const started = Date.now();
  let last = await check();
  while (!ok(last)) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`condition not met within ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
    last = await check();
  }
  return last;
}
