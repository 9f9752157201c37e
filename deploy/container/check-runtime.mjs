#!/usr/bin/env node
// Without a container engine: lays out a folder as deploy/container/Dockerfile lays out the
// runtime stage's /app (its prod-deps stage's `npm ci` run for real, then each runtime COPY read
// from the Dockerfile and taken from this built checkout), starts the runtime's CMD there on
// loopback and asks the HEALTHCHECK's liveness route and the readiness route.
//
//   npm run build && node deploy/container/check-runtime.mjs
//
// Not part of `npm test` (the `npm ci` takes half a minute and the registry); docs/deploy/container.md.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DockerfileParser } from 'dockerfile-ast';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dockerfile = DockerfileParser.parse(fs.readFileSync(path.join(root, 'deploy/container/Dockerfile'), 'utf8'));
const froms = dockerfile.getFROMs();
const stageOf = (line) =>
  froms
    .filter((f) => f.getRange().start.line <= line)
    .pop()
    ?.getBuildStage();
const inStage = (name, keyword) =>
  dockerfile.getInstructions().filter((i) => i.getKeyword() === keyword && stageOf(i.getRange().start.line) === name);
const words = (i) => i.getArguments().map((a) => a.getValue());

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-runtime-'));
const deps = path.join(work, 'prod-deps');
const app = path.join(work, 'app');
const data = path.join(work, 'data');
// Removed however the check ends (the server, if started, is stopped first).
let server;
process.on('exit', () => {
  server?.kill('SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
});
fs.mkdirSync(deps);
fs.mkdirSync(app);

// prod-deps: its COPYs from the build context, then its RUN (npm ci --omit=dev …).
for (const copy of inStage('prod-deps', 'COPY')) {
  const [...sources] = words(copy).filter((w) => !w.startsWith('--'));
  const target = sources.pop();
  for (const source of sources) {
    const to = target.endsWith('/') ? path.join(deps, target, path.basename(source)) : path.join(deps, target);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.cpSync(path.join(root, source), to, { recursive: true });
  }
}
for (const run of inStage('prod-deps', 'RUN')) {
  // The machine's npm stands in for the pinned one; this machine's npm cache is never cleaned.
  const command = run
    .getArgumentsContent()
    .replace(/\\\n/g, ' ')
    .split('&&')
    .map((c) => c.trim())
    .filter((c) => !c.startsWith('npm install -g') && !c.startsWith('npm cache'))
    .join(' && ');
  if (!command) continue;
  console.log(`prod-deps: ${command}`);
  execFileSync('bash', ['-c', command], { cwd: deps, stdio: 'inherit' });
}

// runtime: each COPY --from=build /src/… from this checkout, --from=prod-deps /app/… from above.
for (const copy of inStage('runtime', 'COPY')) {
  const from = copy
    .getFlags()
    .find((f) => f.getName() === 'from')
    ?.getValue();
  const [source, target] = words(copy).filter((w) => !w.startsWith('--'));
  const origin =
    from === 'prod-deps'
      ? path.join(deps, source.replace(/^\/app\//, ''))
      : path.join(root, source.replace(/^\/src\//, ''));
  const to = path.join(app, target);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.cpSync(origin, to, { recursive: true, verbatimSymlinks: true });
}

const cmd = JSON.parse(inStage('runtime', 'CMD')[0].getArgumentsContent());
console.log(`runtime: ${cmd.join(' ')} in ${app}`);

// As the image runs it: as the Dockerfile's USER, in an /app it cannot write (the image's COPYs
// leave it root's), with a data folder of its own. Run as root, the check drops to that user.
const [uid, gid] = words(inStage('runtime', 'USER')[0])[0].split(':').map(Number);
const asUser = process.getuid?.() === 0 ? ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups'] : [];
fs.chmodSync(work, 0o755);
fs.mkdirSync(data, { mode: 0o700 });
if (asUser.length) fs.chownSync(data, uid, gid);
const argv = [...asUser, cmd[0] === 'node' ? process.execPath : cmd[0], ...cmd.slice(1)];
console.log(
  asUser.length
    ? `(as ${uid}:${gid}, /app not writable by it)`
    : '(as this user: run as root to drop to the image user)',
);
server = spawn(argv[0], argv.slice(1), {
  cwd: app,
  env: {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    GATEHOUSE_SSH_PORT: '0',
    GATEHOUSE_DATA_DIR: data,
    GATEHOUSE_ADMIN_PASSWORD: 'a-long-password-for-this-check-only',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let output = '';
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`no banner within 60 s:\n${output}`)), 60_000);
  server.stdout.on('data', (d) => {
    output += d;
    const m = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
    if (m) {
      clearTimeout(timer);
      resolve(m[1]);
    }
  });
  server.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
});
let failed = false;
for (const route of ['/api/health/live', '/api/health/ready', '/']) {
  const res = await fetch(url + route);
  console.log(`GET ${route} → ${res.status}`);
  if (!res.ok) failed = true;
}
const modules = fs.readdirSync(path.join(app, 'node_modules'));
for (const dev of ['vitest', 'typescript', 'react', 'vite', '@playwright']) {
  if (modules.includes(dev)) {
    console.log(`a development or console package is in the runtime: ${dev}`);
    failed = true;
  }
}
server.kill('SIGTERM');
await new Promise((resolve) => server.on('exit', resolve));
server = undefined;
console.log(failed ? 'runtime layout: FAILED' : 'runtime layout: OK');
process.exit(failed ? 1 : 0);
