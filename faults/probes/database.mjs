// The database and Redis as dependencies that fail (PostgreSQL mode, in the suite's own cluster and
// redis-server): every server connection terminated, the cluster stopped and started, Redis killed and
// started, while an ssh session runs and the API is called every few hundred ms.
import path from 'node:path';
import pg from 'pg';
import {
  api,
  castOutput,
  castText,
  eventually,
  latencyProbe,
  lostPulses,
  newRecording,
  pulseCommand,
  recordingEnded,
  recordingIds,
  ssh,
  verify,
  watcher,
} from '../lib/clients.mjs';
import { freePort, sleep } from '../lib/processes.mjs';
import { ServerInstance, mib } from '../lib/server.mjs';

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Starts a pulse session of `seconds`; answers it with its recording id once output flows. */
async function pulseSession(stack, seconds, result) {
  const before = await recordingIds(stack);
  const session = ssh(stack, pulseCommand(seconds));
  session.id = await newRecording(stack, before);
  if (!session.id) result.failures.push('the session got no recording');
  await eventually(
    async () => session.bytes,
    (b) => b > 0,
    15_000,
  );
  return session;
}

/** The biggest gap between two pulses the client received, in seconds. */
function biggestGap(text) {
  const times = [...text.matchAll(/pulse \d+ (\d+)[.,](\d+)/g)].map((m) => Number(`${m[1]}.${m[2]}`));
  let gap = 0;
  for (let i = 1; i < times.length; i += 1) gap = Math.max(gap, times[i] - times[i - 1]);
  return gap;
}

/** The session ran to its end, its recording ended and verifies, and what it lost. */
async function sessionSurvived(stack, session, result) {
  const done = await Promise.race([session.done, sleep(120_000).then(() => undefined)]);
  const text = session.stdout().toString();
  if (!done || done.code !== 0) {
    const why = done ? `exit ${done.code ?? done.signal}: ${session.stderr.trim().split('\n').at(-1)}` : 'hung';
    result.failures.push(`the live session did not go on (${why})`);
    result.happened.push(`live session ended early (${why})`);
  } else result.happened.push(`live session went on (longest pause ${biggestGap(text).toFixed(1)} s)`);
  if (!session.id) return;
  const ended = await recordingEnded(stack, session.id, 60_000);
  const verdict = ended.ended ? await verify(stack, session.id) : { ok: false, status: 'still live', message: '' };
  result.happened.push(`recording ${ended.reason ?? 'not ended'}, verify: ${verdict.status}`);
  if (!verdict.ok) result.failures.push(`recording verify: ${verdict.status} ${verdict.message}`);
  const loss = lostPulses(text, castOutput(await castText(stack, session.id)));
  result.lost = loss.count === 0 ? 'nothing' : `${loss.count} of ${loss.received} pulses`;
  if (loss.count > 0) result.failures.push(`${loss.count} pulses the client saw are not in the recording`);
}

/**
 * What the API answered while the database was away: every answer must be 2xx or a 503 with a message;
 * a 500, another error or no answer within 10 s is a failure. Answers a summary.
 */
function judgeAnswers(samples, result) {
  const counts = new Map();
  for (const s of samples) {
    if (s.status >= 200 && s.status < 300) continue;
    const key = s.status === 0 ? 'no answer' : `${s.status} "${String(s.message ?? '').slice(0, 160)}"`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (s.status !== 503 || !s.message) result.failures.push(`the API answered ${key} while the database was away`);
  }
  result.failures = [...new Set(result.failures)];
  return counts.size === 0 ? 'only 200s' : [...counts].map(([k, n]) => `${n}× ${k}`).join(', ');
}

/** pg_terminate_backend of every server connection, twice: the server stays up and answers again. */
export async function pgTerminate(stack, result, options) {
  const session = await pulseSession(stack, options.smoke ? 12 : 20, result);
  const probe = latencyProbe(stack.server.url, stack.token, '/api/agent', 200);
  await sleep(1500);
  const admin = new pg.Client({ connectionString: stack.cluster.url('postgres') });
  await admin.connect();
  const backIn = [];
  let terminated = 0;
  try {
    for (let round = 0; round < 2; round += 1) {
      const rows = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'gatehouse' AND pid <> pg_backend_pid()`,
      );
      terminated += rows.rowCount ?? 0;
      const at = Date.now();
      const back = await eventually(
        () => api(stack.server.url, 'GET', '/api/agent', stack.token, undefined, 5000),
        (r) => r.status === 200,
        30_000,
      );
      backIn.push(back ? secs(Date.now() - at) : 'never');
      if (!back) result.failures.push('the API did not answer 200 within 30 s of the terminations');
      await sleep(2000);
    }
  } finally {
    await admin.end();
  }
  const answers = judgeAnswers((await probe.stop()).samples, result);
  result.happened.push(
    `${terminated} connections terminated in 2 rounds; API back in ${backIn.join(', ')} (${answers})`,
  );
  await sessionSurvived(stack, session, result);
}

/** The cluster stopped for a while, then started: 503 with a message meanwhile, back within seconds after. */
export async function pgRestart(stack, result, options) {
  const outageMs = options.smoke ? 5000 : 10_000;
  const session = await pulseSession(stack, outageMs / 1000 + 20, result);
  const probe = latencyProbe(stack.server.url, stack.token, '/api/agent', 300);
  await sleep(1500);
  const stoppedAt = Date.now();
  await stack.cluster.stop('fast');
  await sleep(outageMs);
  await stack.cluster.start();
  const startedAt = Date.now();
  const back = await eventually(
    () => api(stack.server.url, 'GET', '/api/agent', stack.token, undefined, 5000),
    (r) => r.status === 200,
    60_000,
  );
  const backMs = Date.now() - startedAt;
  await sleep(1000);
  const { samples } = await probe.stop();
  const answers = judgeAnswers(
    samples.filter((s) => s.at >= stoppedAt),
    result,
  );
  result.happened.push(
    `PostgreSQL down ${secs(startedAt - stoppedAt)}: API answered ${answers}; ${back ? `200 again ${secs(backMs)} after it returned` : 'no 200 within 60 s'}`,
  );
  if (!back || backMs > 10_000)
    result.failures.push('the API did not answer 200 within 10 s of the database returning');
  await sessionSurvived(stack, session, result);
}

/**
 * Redis killed and started again with two instances sharing PostgreSQL and Redis: a session on
 * instance A, watched from instance B. Both stay up, the session goes on, and B hears A's session again.
 */
export async function redisRestart(stack, result, options) {
  const b = new ServerInstance({
    name: 'postgres-b',
    dataDir: path.join(stack.tmp, 'postgres-b', 'data'),
    port: await freePort(),
    sshPort: await freePort(),
    env: stack.env,
  });
  await b.start();
  stack.extra.push(b);
  b.mark();
  const since = Date.now();
  try {
    const session = await pulseSession(stack, options.smoke ? 20 : 30, result);
    const first = watcher(b.url, stack.token, session.id);
    const heard = await eventually(
      async () => first.outEvents,
      (n) => n > 0,
      10_000,
    );
    if (!heard) result.failures.push('before the fault, instance B did not relay the session on A to its watcher');
    const killedAt = Date.now();
    await stack.redis.kill();
    await sleep(3000);
    const during = await Promise.all(
      [stack.server, b].map((s) => api(s.url, 'GET', '/api/agent', stack.token, undefined, 5000)),
    );
    await stack.redis.start();
    const backAt = Date.now();
    result.happened.push(
      `Redis down ${secs(backAt - killedAt)}; API meanwhile A ${during[0].status || 'no answer'}, B ${during[1].status || 'no answer'}`,
    );
    const before = first.outEvents;
    const resumed = await eventually(
      async () => first.outEvents,
      (n) => n > before,
      15_000,
    );
    const fresh = watcher(b.url, stack.token, session.id);
    const freshHeard = await eventually(
      async () => fresh.outEvents,
      (n) => n > 0,
      20_000,
    );
    result.happened.push(
      `watcher on B ${resumed ? 'kept hearing' : 'heard nothing more'}; a new watcher on B ${freshHeard ? `heard A's session ${secs(Date.now() - backAt)} after Redis returned` : 'heard nothing in 20 s'}`,
    );
    if (!freshHeard)
      result.failures.push('a new watcher on B did not hear the session on A within 20 s of Redis returning');
    for (const w of [first, fresh]) w.close();
    await sessionSurvived(stack, session, result);
  } finally {
    const memory = b.window();
    result.happened.push(`instance B RSS ${mib(memory.start)} → ${mib(memory.peak)} MiB`);
    if (memory.peak - memory.start > 300 * 1048576) result.failures.push('instance B grew by more than 300 MiB');
    for (const exit of b.exitsSince(since))
      result.failures.push(`instance B exited (${exit.code ?? exit.signal}): ${exit.log.split('\n').at(-1)}`);
    await b.kill();
    b.stop();
    stack.extra = stack.extra.filter((s) => s !== b);
  }
}
