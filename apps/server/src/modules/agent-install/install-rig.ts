import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What a process left behind. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a script the way the one-line install does (`curl … | sh -s -- ARGS`): the script on the
 * shell's stdin. Asynchronous, since the script downloads from the server this test process runs.
 */
export function runPiped(script: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<Ran> {
  return run('sh', ['-s', '--', ...args], env, script, cwd);
}

/** Runs a command to its end, with what it wrote. */
export function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
  cwd?: string,
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/**
 * A stand-in for systemctl: systemd does not run as PID 1 on this machine (nor in CI), so the
 * install script's `systemctl daemon-reload / enable --now / restart` calls are recorded, one line
 * each, in calls.log beside it; the test then runs the unit's ExecStart itself, as systemd would.
 */
export function fakeSystemctl(dir: string): { bin: string; calls: () => string[] } {
  const bin = path.join(dir, 'fake-bin');
  fs.mkdirSync(bin, { recursive: true });
  const log = path.join(dir, 'systemctl-calls.log');
  fs.writeFileSync(
    path.join(bin, 'systemctl'),
    `#!/bin/sh\n# Test stand-in for systemctl (no systemd as PID 1 here): records its arguments.\nprintf '%s\\n' "$*" >> '${log}'\n`,
    { mode: 0o755 },
  );
  return {
    bin,
    calls: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : []),
  };
}

/** A fresh temporary folder whose path the install script accepts (letters, digits, . _ / + -). */
export function scratch(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** ExecStart= of a unit, split into words (the script writes no quotes: every value is plain). */
export function execStart(unit: string): string[] {
  const line = unit.split('\n').find((l) => l.startsWith('ExecStart='));
  if (!line) throw new Error('the unit has no ExecStart');
  return line.slice('ExecStart='.length).trim().split(/\s+/);
}
