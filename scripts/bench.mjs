// `npm run bench`: speed and memory of what exists, against the built server and a real agent
// process on loopback. Prints percentiles and ratios to targets; run after `npm run build`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ADMIN, startBenchServer } from './bench-server.mjs';

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (v) => `${v.toFixed(1)} ms`;
const report = (name, samples, targetMs) => {
  const p50 = percentile(samples, 50);
  const p95 = percentile(samples, 95);
  const p99 = percentile(samples, 99);
  const ratio = targetMs ? `  p95/target ${(p95 / targetMs).toFixed(3)} (target ${targetMs} ms)` : '';
  console.log(`${name.padEnd(34)} n=${samples.length}  p50 ${ms(p50)}  p95 ${ms(p95)}  p99 ${ms(p99)}${ratio}`);
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-'));
const { server, database, call } = await startBenchServer(dataDir);
const timed = async (fn) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};

try {
  const token = (await call('POST', '/api/login', undefined, ADMIN)).response.user.authentication_token;
  const me = [];
  for (let i = 0; i < 500; i += 1) me.push(await timed(() => call('GET', '/api/user/me', token)));
  report('GET /api/user/me (token, roles)', me, 50);
  const logins = [];
  for (let i = 0; i < 20; i += 1) logins.push(await timed(() => call('POST', '/api/login', undefined, ADMIN)));
  report('POST /api/login (argon2id)', logins, 1000);

  // 10,000 users and 10,000 groups, then the screens' list calls (the spec's lists must stay fast).
  await database.query(
    `INSERT INTO users (email, name) SELECT 'bulk-' || i || '@example.test', 'Bulk User ' || i FROM generate_series(1, 10000) AS i`,
  );
  await database.query(
    `INSERT INTO user_roles (user_id, role_name) SELECT id, 'user' FROM users WHERE email LIKE 'bulk-%'`,
  );
  await database.query(`INSERT INTO groups (name) SELECT 'group-' || i FROM generate_series(1, 10000) AS i`);
  const pages = [];
  for (let i = 0; i < 50; i += 1) {
    const offset = (i * 197) % 9900;
    pages.push(await timed(() => call('GET', `/api/user?limit=25&offset=${offset}&sort=name&order=desc`, token)));
  }
  report('GET /api/user page of 25 (10k users)', pages, 100);
  const searches = [];
  for (let i = 0; i < 50; i += 1)
    searches.push(await timed(() => call('GET', `/api/user?limit=25&q=user ${i}1`, token)));
  report('GET /api/user search (10k users)', searches, 100);
  const groupLists = [];
  for (let i = 0; i < 10; i += 1) groupLists.push(await timed(() => call('GET', '/api/group', token)));
  report('GET /api/group all (10k groups)', groupLists, 1000);

  const { key } = await call('POST', '/api/apikey', token, { description: 'bench' });
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-agent-'));
  const agent = spawn(
    process.execPath,
    [
      'apps/agent/dist/gatehouse-agent.mjs',
      '--server',
      server.url,
      '--key',
      key,
      '--state-dir',
      stateDir,
      '--hostname',
      'bench-01',
    ],
    { stdio: 'ignore' },
  );
  // A bench that fails leaves no agent behind, reconnecting forever.
  process.on('exit', () => agent.kill('SIGKILL'));
  let agentId;
  for (let i = 0; i < 100 && !agentId; i += 1) {
    await new Promise((r) => setTimeout(r, 100));
    agentId = (await call('GET', '/api/agent', token)).agents.find((a) => a.hostname === 'bench-01' && a.connected)?.id;
  }
  const echo = net.createServer((s) => s.pipe(s));
  await new Promise((r) => echo.listen(0, '127.0.0.1', r));
  const echoPort = echo.address().port;

  const applied = [];
  for (let i = 0; i < 20; i += 1) {
    // The server allows an agent 20 config acknowledgements at once and 2 a second after
    // (agent-limits.ts); the first config on connecting is one of them, so 20 changes back to back
    // closed the agent's socket as a flood. 600 ms apart, the allowance never runs out.
    if (i > 0) await new Promise((r) => setTimeout(r, 600));
    const fps = (i % 30) + 1;
    applied.push(
      await timed(async () => {
        await call('POST', `/api/agent/${agentId}/config`, token, { recording_fps: fps, whitelist: [echoPort] });
        for (;;) {
          try {
            if (JSON.parse(fs.readFileSync(path.join(stateDir, 'config.json'), 'utf8')).recording_fps === fps) return;
          } catch {
            /* being written */
          }
          await new Promise((r) => setTimeout(r, 5));
        }
      }),
    );
  }
  report('config saved → applied on agent', applied, 1000);

  const size = 64 * 1024 * 1024;
  const rssBefore = process.memoryUsage().rss;
  const stream = await server.services.hub.openStream(agentId, echoPort);
  const chunk = Buffer.alloc(64 * 1024, 7);
  let received = 0;
  let peakRss = rssBefore;
  const took = await timed(
    () =>
      new Promise((resolve) => {
        stream.on('data', (c) => {
          received += c.length;
          peakRss = Math.max(peakRss, process.memoryUsage().rss);
          if (received >= size) resolve();
        });
        let sent = 0;
        const pump = () => {
          while (sent < size) {
            sent += chunk.length;
            if (!stream.write(chunk)) return stream.once('drain', pump);
          }
        };
        pump();
      }),
  );
  stream.destroy();
  const mbps = (2 * size) / (1024 * 1024) / (took / 1000);
  console.log(
    `tunnel echo through the agent        ${(size / 1048576).toFixed(0)} MiB each way in ${ms(took)}: ${mbps.toFixed(1)} MiB/s (both directions)`,
  );
  console.log(
    `server memory growth during transfer ${((peakRss - rssBefore) / 1048576).toFixed(1)} MiB  ratio to 64 MiB payload ${((peakRss - rssBefore) / size).toFixed(3)} (target < 0.5)`,
  );
  agent.kill('SIGKILL');
  echo.close();
} finally {
  await server.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
