// The 10 GiB recording: run by the recordings' own script (faults/big-recording.mjs) or fault test
// (a *.faults.test.ts beside the code) when present; otherwise reported as not run, never faked.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, own } from '../lib/processes.mjs';
import { freshDatabase } from '../lib/stack.mjs';

const SCRIPT = path.join(ROOT, 'faults/big-recording.mjs');

/** *.faults.test.ts files under apps/ and packages/ (node_modules and dist left out). */
function faultTests() {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.faults.test.ts')) found.push(path.relative(ROOT, full));
    }
  };
  for (const top of ['apps', 'packages']) walk(path.join(ROOT, top));
  return found;
}

/** Runs a command to its end; answers its exit code and output (the last 64 KiB). */
function run(command, args, env) {
  return new Promise((resolve) => {
    const child = own(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => (output = (output + chunk.toString()).slice(-65_536));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('exit', (code, signal) => resolve({ code: code ?? signal, output }));
  });
}

export async function bigRecording(stack, result, options) {
  if (options.smoke) {
    result.skipped = 'not run in the smoke (10 GiB)';
    return;
  }
  const tests = faultTests();
  if (!fs.existsSync(SCRIPT) && tests.length === 0) {
    result.skipped = 'not run: script missing (faults/big-recording.mjs or a *.faults.test.ts)';
    return;
  }
  // What the script may use: this installation, or a database of its own in the suite's cluster.
  const env = {
    FAULTS_MODE: stack.mode,
    FAULTS_SERVER_URL: stack.server.url,
    FAULTS_TOKEN: stack.token,
    FAULTS_SSH_PORT: String(stack.server.sshPort),
    FAULTS_SSH_TARGET: `${stack.admin.email}@${stack.hostname}@127.0.0.1`,
    FAULTS_SSH_KEY: stack.userKey.file,
    FAULTS_SERVER_PID: String(stack.server.child?.pid ?? ''),
    FAULTS: '1',
  };
  if (stack.mode === 'postgres') {
    const url = await freshDatabase(stack.cluster, 'gatehouse_big');
    Object.assign(env, { FAULTS_DATABASE_URL: url, DATABASE_URL: url, TEST_DATABASE_URL: url });
  } else Object.assign(env, { DATABASE_URL: '', TEST_DATABASE_URL: '' });
  const runs = fs.existsSync(SCRIPT)
    ? [['faults/big-recording.mjs', await run(process.execPath, [SCRIPT], env)]]
    : [[tests.join(' '), await run('npx', ['vitest', 'run', ...tests], env)]];
  for (const [what, { code, output }] of runs) {
    const last = output.trim().split('\n').filter(Boolean).slice(-3).join(' / ');
    result.happened.push(`${what}: ${last.slice(0, 400)}`);
    if (code !== 0) result.failures.push(`${what} exited ${code}`);
  }
  result.lost = result.failures.length ? 'see the script' : 'nothing';
}
