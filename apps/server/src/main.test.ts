import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/main.js');

/** Runs the built server as a real process until its output matches, or it exits. */
function run(
  env: Record<string, string>,
  until: RegExp,
): Promise<{ child: ChildProcess; output: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, LOG_LEVEL: 'warn', GATEHOUSE_SSH_PORT: '0', ...env },
      stdio: 'pipe',
    });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no match for ${until} in:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (until.test(output)) {
        clearTimeout(timer);
        resolve({ child, output, code: null });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ child, output, code });
    });
  });
}

describe('npm start (the built server as a process)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-main-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is built (npm run build) before the tests run', () => {
    expect(fs.existsSync(MAIN), `${MAIN} is missing: run npm run build`).toBe(true);
  });

  it('prints the URL and a generated first-admin password, then serves sign-in with it', async () => {
    const first = await run({ GATEHOUSE_DATA_DIR: dataDir, PORT: '0' }, /Password \(shown only this once.*\): (\S+)/);
    children.push(first.child);
    const url = /running at (http:\/\/\S+)/.exec(first.output)?.[1];
    const password = /Password \(shown only this once.*\): (\S+)/.exec(first.output)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.output).toContain('First administrator: admin@gatehouse.local');
    const res = await fetch(`${url}/api/login?include_auth_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@gatehouse.local', password }),
    });
    expect(res.status).toBe(200);
  });

  it('refuses a second server on the same data folder with a clear message', async () => {
    const second = await run({ GATEHOUSE_DATA_DIR: dataDir, PORT: '0' }, /$^/);
    expect(second.code).toBe(1);
    expect(second.output).toMatch(/already using the data folder/);
  });

  it('keeps its data across restarts and does not print a password again', async () => {
    const first = children.pop();
    const exited = new Promise((resolve) => first?.once('exit', resolve));
    first?.kill('SIGTERM');
    await exited;
    const again = await run({ GATEHOUSE_DATA_DIR: dataDir, PORT: '0' }, /running at .*\n.*\n/);
    children.push(again.child);
    expect(again.output).not.toMatch(/First administrator/);
  });

  it('refuses invalid configuration, naming the variable', async () => {
    const bad = await run({ GATEHOUSE_DATA_DIR: dataDir, PORT: 'abc' }, /$^/);
    expect(bad.code).toBe(1);
    expect(bad.output).toMatch(/PORT/);
  });
});
