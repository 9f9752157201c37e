import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built agent CLI. */
const AGENT_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/agent/dist/cli.js');

/** A real agent started by a test: its process, state folder and the output it wrote. */
export interface RunningAgent {
  child: ChildProcess;
  hostname: string;
  stateDir: string;
  output: () => string;
}

const started: ChildProcess[] = [];
const folders: string[] = [];

/** A hostname no earlier run used: e2e-host-<n>. */
export function agentHostname(prefix = 'e2e-host'): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1000).toString(36)}`;
}

/** Starts `node apps/agent/dist/cli.js --server … --key … --state-dir <tmp> --hostname …`. */
export function startAgent(server: string, key: string, hostname: string): RunningAgent {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-agent-e2e-'));
  const child = spawn(
    process.execPath,
    [AGENT_CLI, '--server', server, '--key', key, '--state-dir', stateDir, '--hostname', hostname],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  started.push(child);
  folders.push(stateDir);
  return { child, hostname, stateDir, output: () => output };
}

/** The config the agent wrote to <state-dir>/config.json, or null before it has one. */
export function appliedConfig(agent: RunningAgent): Record<string, unknown> | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(agent.stateDir, 'config.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** Kills every agent this test file started (SIGKILL: no goodbye to the server) and removes their folders. */
export function killAllAgents(): void {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
}
