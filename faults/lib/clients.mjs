// The clients of the fault suite: the HTTP API, the real OpenSSH client, a console watcher that can stop
// reading (engine.io spoken over a raw WebSocket, so the suite controls its socket), and a latency probe.
import { spawn } from 'node:child_process';
import WebSocket from 'ws';
import { sleep } from './processes.mjs';

/** One API call; answers {status, body, ms}, or status 0 with the error when no answer came in time. */
export async function api(base, method, url, token, body, timeoutMs = 10_000) {
  const started = performance.now();
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(token ? { 'authentication-token': token } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, ms: performance.now() - started };
  } catch (error) {
    return { status: 0, body: { message: error.message }, ms: performance.now() - started };
  }
}

/** Polls check() every 100 ms until ok(value); answers the value, or undefined after the timeout. */
export async function eventually(check, ok, timeoutMs = 10_000) {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (ok(value)) return value;
    if (Date.now() - started > timeoutMs) return undefined;
    await sleep(100);
  }
}

/** Signs in as the administrator; answers the token. */
export async function signIn(base, admin) {
  const res = await api(base, 'POST', '/api/login', undefined, admin);
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.response.user.authentication_token;
}

/**
 * The real ssh client through the gateway. Answers the child and `done`: exit code, stdout as bytes,
 * stderr, when the last byte came and how long it ran.
 */
export function ssh(stack, command, { bind = '127.0.0.1', timeoutMs = 600_000, sink = false } = {}) {
  const started = Date.now();
  const child = spawn(
    'ssh',
    [
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      'UserKnownHostsFile=/dev/null',
      '-o',
      'BatchMode=yes',
      '-o',
      'IdentitiesOnly=yes',
      '-o',
      'LogLevel=ERROR',
      '-o',
      'ConnectTimeout=20',
      '-b',
      bind,
      '-i',
      stack.userKey.file,
      '-p',
      String(stack.server.sshPort),
      `${stack.admin.email}@${stack.hostname}@127.0.0.1`,
      command,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const chunks = [];
  const session = { child, bytes: 0, firstByteAt: 0, lastByteAt: 0, stderr: '', stdout: () => Buffer.concat(chunks) };
  child.stdout.on('data', (c) => {
    session.firstByteAt ||= Date.now();
    session.bytes += c.length;
    session.lastByteAt = Date.now();
    if (!sink) chunks.push(c);
  });
  child.stderr.on('data', (c) => (session.stderr = (session.stderr + c.toString()).slice(-4000)));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  session.done = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, at: Date.now(), ms: Date.now() - started });
    }),
  );
  return session;
}

/** A shell command printing `pulse <n> <epoch seconds.micro>` 20 times a second for `seconds`. */
export const pulseCommand = (seconds) =>
  `exec bash -c 'i=0; end=$((SECONDS+${seconds})); while [ $SECONDS -lt $end ]; do i=$((i+1)); echo "pulse $i $EPOCHREALTIME"; sleep 0.05; done'`;

/** The pulses in a text: [{n, t}] with t in seconds. */
export function pulses(text) {
  return [...text.matchAll(/pulse (\d+) (\d+)[.,](\d+)/g)].map((m) => ({
    n: Number(m[1]),
    t: Number(`${m[2]}.${m[3]}`),
  }));
}

/** The output of an asciicast v2 text ('o' events joined). */
export function castOutput(text) {
  let out = '';
  for (const line of text.split('\n').slice(1)) {
    if (!line) continue;
    try {
      const [, kind, data] = JSON.parse(line);
      if (kind === 'o') out += data;
    } catch {
      // a torn last line after a crash: not output
    }
  }
  return out;
}

/**
 * What the recording lacks of what the ssh client received, from the pulses: the count and the seconds
 * of output between the last pulse recorded and the last pulse received.
 */
export function lostPulses(received, recorded) {
  const got = pulses(received);
  const kept = pulses(recorded);
  const lastGot = got.at(-1);
  const lastKept = kept.at(-1);
  if (!lastGot) return { count: 0, seconds: 0, received: 0, recorded: kept.length };
  const missing = got.filter((p) => !kept.some((k) => k.n === p.n));
  const seconds = lastKept ? Math.max(0, lastGot.t - lastKept.t) : lastGot.t - got[0].t;
  return { count: missing.length, seconds, received: got.length, recorded: kept.length };
}

/** Finds the id of a recording that was not in `before` (a Set of ids), once it is listed. */
export async function newRecording(stack, before, timeoutMs = 20_000) {
  const found = await eventually(
    () => api(stack.server.url, 'GET', '/api/recording?limit=50', stack.token),
    (r) => r.status === 200 && r.body.recordings.some((x) => !before.has(x.id)),
    timeoutMs,
  );
  return found?.body.recordings.find((x) => !before.has(x.id))?.id;
}

export async function recordingIds(stack) {
  const res = await api(stack.server.url, 'GET', '/api/recording?limit=200', stack.token);
  return new Set(res.status === 200 ? res.body.recordings.map((r) => r.id) : []);
}

/** Waits for the recording to end; answers {ended, reason, afterMs}. */
export async function recordingEnded(stack, id, timeoutMs = 60_000) {
  const started = Date.now();
  const res = await eventually(
    () => api(stack.server.url, 'GET', `/api/recording/${id}/data`, stack.token),
    (r) => r.status === 200 && r.body.ended_on !== null,
    timeoutMs,
  );
  return { ended: res !== undefined, reason: res?.body.end_reason ?? null, afterMs: Date.now() - started };
}

/** GET /api/recording/{id}/verify; answers {ok, status, message, ms}. */
export async function verify(stack, id, timeoutMs = 600_000) {
  const res = await api(stack.server.url, 'GET', `/api/recording/${id}/verify`, stack.token, undefined, timeoutMs);
  const status = res.status === 200 ? res.body.status : `HTTP ${res.status || 'no answer'}`;
  return { ok: status === 'intact', status, message: res.body?.message ?? '', ms: res.ms };
}

/** The recording's cast text through the API. */
export async function castText(stack, id) {
  const res = await fetch(`${stack.server.url}/api/recording/${id}/cast`, {
    headers: { 'authentication-token': stack.token },
    signal: AbortSignal.timeout(60_000),
  });
  return res.status === 200 ? res.text() : '';
}

/**
 * Calls `url` every `everyMs` until stop(); answers the statuses, the latencies (ms) and the longest
 * time without any 2xx answer.
 */
export function latencyProbe(base, token, url = '/api/agent', everyMs = 250) {
  const samples = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const at = Date.now();
      const res = await api(base, 'GET', url, token, undefined, 10_000);
      samples.push({ at, status: res.status, ms: res.ms, message: res.body?.message });
      await sleep(Math.max(0, everyMs - res.ms));
    }
  })();
  return {
    samples,
    async stop() {
      running = false;
      await loop;
      const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
      const pct = (p) => ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))] ?? 0;
      return { count: samples.length, p50: pct(50), p99: pct(99), max: ms.at(-1) ?? 0, samples };
    },
  };
}

/**
 * A console watcher speaking engine.io 4 / socket.io 5 over a raw WebSocket: attaches to a recording,
 * counts record_out bytes, keeps every other event and the close. pause() stops reading from the socket
 * (the kernel's buffers fill, then the server's); resume() reads again.
 */
export function watcher(base, token, recordingId, { replay = false } = {}) {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`, {
    perMessageDeflate: false,
  });
  const w = {
    ws,
    outBytes: 0,
    outEvents: 0,
    lastOutAt: 0,
    events: [],
    closed: undefined,
    connectError: undefined,
    pause: () => ws.pause(),
    resume: () => ws.resume(),
    close: () => ws.terminate(),
    /** Messages the watcher was told: events other than output, a server disconnect, the close reason. */
    reasons() {
      const told = w.events
        .filter((e) => typeof e.data?.message === 'string')
        .map((e) => `${e.name}: ${e.data.message}`);
      if (w.closed?.reason) told.push(`close ${w.closed.code}: ${w.closed.reason}`);
      return told;
    },
  };
  w.attached = new Promise((resolve) => (w.onAttach = resolve));
  ws.on('message', (data) => {
    const text = data.toString();
    if (text.startsWith('0')) ws.send(`40${JSON.stringify({ token })}`);
    else if (text === '2') ws.send('3');
    else if (text.startsWith('40')) {
      ws.send(`42${JSON.stringify(['new_record_attach', { recording_id: recordingId, replay }])}`);
      w.onAttach(true);
    } else if (text.startsWith('44')) {
      w.connectError = text.slice(2);
      w.onAttach(false);
    } else if (text.startsWith('41')) w.events.push({ name: 'disconnect', data: { message: 'server disconnect' } });
    else if (text.startsWith('42')) {
      const [name, payload] = JSON.parse(text.slice(2));
      if (name === 'record_out') {
        w.outEvents += 1;
        w.lastOutAt = Date.now();
        for (const event of payload.events ?? []) w.outBytes += event[2]?.length ?? 0;
      } else if (name !== 'navigation_counts_changed' && name !== 'agents_changed') {
        w.events.push({ name, data: payload });
      }
    }
  });
  ws.on('close', (code, reason) => (w.closed = { code, reason: reason.toString(), at: Date.now() }));
  ws.on('error', (error) => (w.error = error.message));
  return w;
}
