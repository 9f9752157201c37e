// The 10 GiB recording, against an installation the fault suite started (its probe big-recording passes
// FAULTS_SERVER_URL, FAULTS_TOKEN, FAULTS_SSH_PORT, FAULTS_SSH_TARGET, FAULTS_SSH_KEY, FAULTS_SERVER_PID):
//
//   node faults/run.mjs --only=big-recording [--db=pglite]
//
// A session through the gateway prints FAULTS_BIG_GIB (default 10) GiB of text with a marker at its end.
// Meanwhile a console watcher attaches and times the catch-up. Then, each timed with the server's peak
// RSS: verification through the API, seeks (and the player's ranged read at each offset), the player's
// first and last windows, a text search for the marker, and the export (the whole cast downloaded).
// Exits 1 when anything fails: a byte not recorded, a verdict other than intact, a seek or search that
// misses, or the server's memory growing by more than FAULTS_BIG_MEMORY_MIB (default 300) in any phase.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import WebSocket from 'ws';

const env = process.env;
if (!env.FAULTS_SERVER_URL) {
  console.error('Run through the fault suite: node faults/run.mjs --only=big-recording [--db=pglite]');
  process.exit(2);
}
const BASE = env.FAULTS_SERVER_URL;
const TOKEN = env.FAULTS_TOKEN;
const GIB = Number(env.FAULTS_BIG_GIB ?? 10);
const BYTES = Math.round(GIB * 1024 ** 3);
const MEMORY_BOUND = Number(env.FAULTS_BIG_MEMORY_MIB ?? 300) * 1048576;
// The marker as printed: the command carries `$((6*7))`, so the command's own text never matches it.
const STAMP = Date.now();
const MARKER = `big-recording-end-42-${STAMP}`;
const failures = [];
const summary = [];
const mib = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;
const gib = (bytes) => `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// The suite prints only the last three lines: FAULTS_BIG_LOG=FILE keeps them all.
const print = (line) => {
  console.log(line);
  if (env.FAULTS_BIG_LOG) fs.appendFileSync(env.FAULTS_BIG_LOG, `${line}\n`);
};

/** The server's resident memory, sampled every 100 ms; phases report their start and peak. */
const memory = {
  pid: Number(env.FAULTS_SERVER_PID),
  current: 0,
  peak: 0,
  sample() {
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${this.pid}/status`, 'utf8'))?.[1];
      if (kb) this.current = Number(kb) * 1024;
      this.peak = Math.max(this.peak, this.current);
    } catch {
      // the server is gone: the suite reports its exit
    }
  },
};
const sampler = setInterval(() => memory.sample(), 100);

/** Runs one phase; answers its result, and prints its time and the server's RSS growth. */
async function phase(name, task) {
  memory.sample();
  const start = memory.current;
  memory.peak = start;
  const started = performance.now();
  try {
    return await task();
  } catch (error) {
    failures.push(`${name}: ${error.message}`);
    return undefined;
  } finally {
    memory.sample();
    const growth = memory.peak - start;
    const line = `${name}: ${secs(performance.now() - started)}, server RSS ${mib(start)} → peak ${mib(memory.peak)} (+${mib(growth)})`;
    print(line);
    if (growth > MEMORY_BOUND) failures.push(`${name}: the server's RSS grew by ${mib(growth)}`);
  }
}

async function api(method, url, timeoutMs = 30_000) {
  const started = performance.now();
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: { 'authentication-token': TOKEN },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let body = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  if (res.status !== 200) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 200)}`);
  return { body, ms: performance.now() - started };
}

/** Bytes [start, end] of the cast, as the player fetches them. */
async function castRange(id, range) {
  const res = await fetch(`${BASE}/api/recording/${id}/cast`, {
    headers: { 'authentication-token': TOKEN, range: `bytes=${range}` },
    signal: AbortSignal.timeout(60_000),
  });
  if (res.status !== 206) throw new Error(`range ${range} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** The session: GIB GiB of text lines, then the marker; stdout counted and dropped. */
function session() {
  const command = `yes 'the quick brown fox jumps over the lazy dog 0123456789 {"json":"quotes \\\\ and backslashes"}' | head -c ${BYTES}; echo; echo big-recording-end-$((6*7))-${STAMP}`;
  const child = spawn(
    'ssh',
    [
      ...['-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'BatchMode=yes'],
      ...['-o', 'IdentitiesOnly=yes', '-o', 'LogLevel=ERROR', '-b', '127.0.0.1'],
      ...['-i', env.FAULTS_SSH_KEY, '-p', env.FAULTS_SSH_PORT, env.FAULTS_SSH_TARGET, command],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const s = { child, bytes: 0, tail: '', stderr: '' };
  child.stdout.on('data', (chunk) => {
    s.bytes += chunk.length;
    s.tail = (s.tail + chunk.toString('latin1')).slice(-200);
  });
  child.stderr.on('data', (chunk) => (s.stderr = (s.stderr + chunk).slice(-2000)));
  s.done = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  return s;
}

/** Attaches a console watcher with replay; answers the catch-up (seq 0): its events' bytes and delay. */
function catchUp(id) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${BASE.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`, {
      perMessageDeflate: false,
    });
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('no catch-up within 30 s'));
    }, 30_000);
    let attachedAt = 0;
    ws.on('message', (data) => {
      const text = data.toString();
      if (text.startsWith('0')) ws.send(`40${JSON.stringify({ token: TOKEN })}`);
      else if (text === '2') ws.send('3');
      else if (text.startsWith('40')) {
        attachedAt = performance.now();
        ws.send(`42${JSON.stringify(['new_record_attach', { recording_id: id, replay: true }])}`);
      } else if (text.startsWith('42')) {
        const [name, payload] = JSON.parse(text.slice(2));
        if (name === 'record_attach_error') reject(new Error(payload.message));
        if (name !== 'record_out' || payload.seq !== 0) return;
        clearTimeout(timer);
        ws.terminate();
        const chars = payload.events.reduce((n, e) => n + (e[2]?.length ?? 0), 0);
        resolve({
          ms: performance.now() - attachedAt,
          upto: payload.upto,
          events: payload.events.length,
          chars,
          wire: text.length,
        });
      }
    });
    ws.on('error', reject);
  });
}

const started = Date.now();
print(`big-recording: ${GIB} GiB through the gateway (${env.FAULTS_MODE ?? '?'}), marker ${MARKER}`);
const before = new Set((await api('GET', '/api/recording?limit=200')).body.recordings.map((r) => r.id));
let id;
let recordedMs = 0;
const s = session();
await phase('record', async () => {
  for (let i = 0; i < 300 && !id; i += 1) {
    await sleep(100);
    id = (await api('GET', '/api/recording?limit=50')).body.recordings.find((r) => !before.has(r.id))?.id;
  }
  if (!id) throw new Error('the session got no recording');
  // Halfway: a watcher attaches and gets the catch-up (the recording's tail, not all of it).
  while (s.bytes < BYTES / 2 && s.child.exitCode === null) await sleep(200);
  const caught = await catchUp(id).catch((error) => failures.push(`catch-up: ${error.message}`));
  if (caught && typeof caught === 'object')
    summary.push(
      `catch-up at ${gib(s.bytes)}: ${caught.events} events, ${mib(caught.wire)} on the wire in ${caught.ms.toFixed(0)} ms (chunk ${caught.upto})`,
    );
  for (let last = Date.now(); s.child.exitCode === null && s.child.signalCode === null; await sleep(500)) {
    if (Date.now() - last < 30_000) continue;
    last = Date.now();
    print(`  ${gib(s.bytes)} after ${secs(last - started)}, server RSS ${mib(memory.current)}`);
  }
  const code = await s.done;
  recordedMs = Date.now() - started;
  if (code !== 0) throw new Error(`ssh exited ${code}: ${s.stderr.trim().slice(-200)}`);
  if (!s.tail.includes(MARKER)) throw new Error('the client did not get the marker');
  summary.push(`recorded ${gib(s.bytes)} in ${secs(recordedMs)} (${mib((s.bytes / recordedMs) * 1000)}/s)`);
});
if (!id) {
  print(`FAIL: ${failures.join('; ')}`);
  process.exit(1);
}

let detail;
for (let i = 0; i < 600; i += 1) {
  detail = (await api('GET', `/api/recording/${id}/data`)).body;
  if (detail.ended_on) break;
  await sleep(100);
}
if (!detail.ended_on) failures.push('the recording did not end within 60 s of the session');
const size = detail.bytes;
print(`recording ${id}: ${gib(size)} cast, ${detail.chunks} chunks, ended ${detail.end_reason}`);
if (size < BYTES) failures.push(`the cast (${size} bytes) is smaller than the output (${BYTES} bytes)`);

await phase('verify', async () => {
  const { body, ms } = await api('GET', `/api/recording/${id}/verify`, 1_800_000);
  summary.push(`verify ${body.status} in ${secs(ms)} (${mib((body.checked_bytes / ms) * 1000)}/s)`);
  if (body.status !== 'intact') throw new Error(`${body.status}: ${body.message}`);
});

await phase('seek', async () => {
  const { body: end } = await api('GET', `/api/recording/${id}/seek?t=315360000`);
  const times = [];
  for (const fraction of [0, 0.25, 0.5, 0.75, 0.999]) {
    const t = end.duration * fraction;
    const { body, ms } = await api('GET', `/api/recording/${id}/seek?t=${t}`);
    // The player's read at the offset: a window that starts with the event found.
    const window = await castRange(id, `${body.offset}-${body.offset + 65_535}`);
    if (!window.toString('latin1').startsWith(`[${body.t},`))
      throw new Error(`seek to ${t.toFixed(2)} s: the bytes at ${body.offset} are not its event`);
    if (body.t < t - 1e-6) throw new Error(`seek to ${t} answered an earlier event (${body.t})`);
    times.push(ms);
  }
  summary.push(
    `5 seeks over ${end.duration.toFixed(1)} s in ${Math.min(...times).toFixed(0)}–${Math.max(...times).toFixed(0)} ms each`,
  );
});

await phase('replay windows', async () => {
  const first = await castRange(id, '0-1048575');
  const last = await castRange(id, '-1048576');
  if (!first.toString().startsWith('{"version":2')) throw new Error('the first window is not the header');
  if (!last.toString().includes(MARKER)) throw new Error('the last window lacks the marker');
});

await phase('search', async () => {
  const { body, ms } = await api('GET', `/api/recording/${id}/search?q=${MARKER}`, 1_800_000);
  summary.push(`search ${body.hits.length} hit in ${secs(ms)} (${mib((size / ms) * 1000)}/s)`);
  if (body.hits.length !== 1)
    throw new Error(`search found ${body.hits.length} hits of the marker: ${JSON.stringify(body.hits)}`);
});

await phase('export', async () => {
  const t0 = performance.now();
  const res = await fetch(`${BASE}/api/recording/${id}/cast?download=true`, {
    headers: { 'authentication-token': TOKEN },
    signal: AbortSignal.timeout(1_800_000),
  });
  if (res.status !== 200) throw new Error(`the download answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.length;
  if (bytes !== size) throw new Error(`the download has ${bytes} bytes, the cast ${size}`);
  summary.push(`export ${gib(bytes)} in ${secs(performance.now() - t0)}`);
});

clearInterval(sampler);
print(summary.join('; '));
print(failures.length ? `FAIL: ${failures.join('; ')}` : `PASS in ${secs(Date.now() - started)}`);
process.exit(failures.length ? 1 : 0);
