import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { keyFingerprint } from './recordings/chain.js';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/main.js');

/** Runs the built server as a real process until its output matches, or it exits. */
function run(
  env: Record<string, string>,
  until: RegExp,
  nodeOptions: string[] = [],
): Promise<{ child: ChildProcess; output: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeOptions, MAIN], {
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

  it('prints the recording signing key’s fingerprint, and warns when the key is kept with the data', async () => {
    const banner = /Recordings are signed with the key (SHA256:\S+) \(([^)]+)\)/;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-main-key-'));
    const keyFile = path.join(dir, 'recording-key.pem');
    const pair = generateKeyPairSync('ed25519');
    fs.writeFileSync(keyFile, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const given = await run(
      { GATEHOUSE_DATA_DIR: path.join(dir, 'data'), PORT: '0', GATEHOUSE_RECORDING_KEY_FILE: keyFile },
      /Recordings are signed with.*\n/,
    );
    children.push(given.child);
    expect(banner.exec(given.output)?.slice(1)).toEqual([
      keyFingerprint(pair.publicKey),
      'from GATEHOUSE_RECORDING_KEY_FILE',
    ]);
    expect(given.output).not.toMatch(/kept with the data folder/);
    const sealed = await run(
      { GATEHOUSE_DATA_DIR: path.join(dir, 'sealed'), PORT: '0' },
      /GATEHOUSE_RECORDING_KEY_FILE \(see/,
    );
    children.push(sealed.child);
    const pub = fs.readFileSync(path.join(dir, 'sealed', 'recording-signing.pub'), 'utf8');
    expect(banner.exec(sealed.output)?.[1]).toBe(keyFingerprint(pub));
    expect(sealed.output).toMatch(/Warning: that key is kept with the data folder/);
    // The log says it too (LOG_LEVEL=warn here: the warning, with the fingerprint).
    expect(sealed.output).toMatch(/the key that signs recordings is kept with the data folder/);
  });

  it('refuses a recording key that is not Ed25519, saying so and how to make one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-main-rsa-'));
    const keyFile = path.join(dir, 'rsa.pem');
    fs.writeFileSync(
      keyFile,
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    const bad = await run(
      { GATEHOUSE_DATA_DIR: path.join(dir, 'data'), PORT: '0', GATEHOUSE_RECORDING_KEY_FILE: keyFile },
      /$^/,
    );
    expect(bad.code).toBe(1);
    expect(bad.output).toMatch(/GATEHOUSE_RECORDING_KEY_FILE \(.*rsa\.pem\) is a rsa key, not Ed25519/);
    expect(bad.output).toMatch(/openssl genpkey -algorithm ed25519 -out recording-key\.pem/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses invalid configuration, naming the variable', async () => {
    const bad = await run({ GATEHOUSE_DATA_DIR: dataDir, PORT: 'abc' }, /$^/);
    expect(bad.code).toBe(1);
    expect(bad.output).toMatch(/PORT/);
  });

  it('an unhandled promise rejection is logged and the server keeps serving', async () => {
    // A module loaded before main.js rejects a promise that nothing handles, once the server runs:
    // the stand-in for a database error in a detached handler. Node's default would end the process.
    const reject = `setTimeout(() => { Promise.reject(new Error('planted rejection')); }, 1500);`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-main-reject-'));
    const server = await run(
      { GATEHOUSE_DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'error' },
      /running at[\s\S]*planted rejection|planted rejection[\s\S]*running at/,
      ['--import', `data:text/javascript,${encodeURIComponent(reject)}`],
    );
    children.push(server.child);
    expect(server.code).toBeNull();
    expect(server.output).toMatch(/unhandled promise rejection \(the server keeps running\)/);
    const url = /running at (http:\/\/\S+)/.exec(server.output)?.[1];
    await new Promise((r) => setTimeout(r, 300));
    expect(server.child.exitCode).toBeNull();
    const res = await fetch(`${url}/api/settings/public`);
    expect(res.status).toBe(200);
  });

  it('the data folder is owner-only (0700 folders, 0600 files) on first start and after an upgrade', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-main-modes-'));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-main-outside-'));
    const modes = () => {
      const found: { file: string; mode: number; folder: boolean }[] = [];
      const walk = (d: string) => {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          const full = path.join(d, e.name);
          if (e.isSymbolicLink()) continue;
          found.push({ file: full, mode: fs.statSync(full).mode & 0o777, folder: e.isDirectory() });
          if (e.isDirectory()) walk(full);
        }
      };
      walk(dir);
      return found;
    };
    const stopped = async (child: ChildProcess) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    };
    const first = await run({ GATEHOUSE_DATA_DIR: dir, PORT: '0' }, /running at/);
    await stopped(first.child);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const made = modes();
    expect(made.some((m) => m.file.includes('pglite') && !m.folder)).toBe(true);
    expect(made.filter((m) => m.mode !== (m.folder ? 0o700 : 0o600))).toEqual([]);

    // An older version left world-readable files and folders; a link points outside the folder.
    fs.chmodSync(dir, 0o755);
    for (const m of made) fs.chmodSync(m.file, m.folder ? 0o755 : 0o666);
    fs.writeFileSync(path.join(outside, 'not-ours'), 'x', { mode: 0o644 });
    fs.chmodSync(path.join(outside, 'not-ours'), 0o644);
    fs.symlinkSync(path.join(outside, 'not-ours'), path.join(dir, 'link-out'));
    const again = await run({ GATEHOUSE_DATA_DIR: dir, PORT: '0' }, /running at/);
    await stopped(again.child);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(modes().filter((m) => m.mode !== (m.folder ? 0o700 : 0o600))).toEqual([]);
    // What a link points at is not the server's to change.
    expect(fs.statSync(path.join(outside, 'not-ours')).mode & 0o777).toBe(0o644);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });
});
