// Floods: an enrolled agent sending 10,000 messages a second (hellos, or frames for streams that do not
// exist), and a console watcher that stops reading while a session prints a large output.
import WebSocket from 'ws';
import { AGENT_CONNECT_PATH, AGENT_CREDENTIAL_HEADER, AGENT_ID_HEADER } from '@gatehouse/contracts';
import {
  api,
  eventually,
  latencyProbe,
  newRecording,
  recordingEnded,
  recordingIds,
  ssh,
  verify,
  watcher,
} from '../lib/clients.mjs';
import { sleep } from '../lib/processes.mjs';
import { agentListed, sshWorks } from '../lib/stack.mjs';

const RATE = 10_000;
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const ms = (v) => `${Math.round(v)} ms`;

/** The newest audit entry's id (entries after it are this probe's). */
async function newestAudit(stack) {
  const res = await api(stack.server.url, 'GET', '/api/audit?limit=1', stack.token);
  return res.body?.entries?.[0]?.id ?? 0;
}

/** Audit entries after `afterId` whose target is `target`, paging back 500 at a time (at most 40 pages). */
async function auditRows(stack, afterId, target) {
  let count = 0;
  let before;
  for (let page = 0; page < 40; page += 1) {
    const query = `/api/audit?limit=500${before ? `&before=${before}` : ''}`;
    const res = await api(stack.server.url, 'GET', query, stack.token, undefined, 30_000);
    const entries = res.body?.entries ?? [];
    for (const entry of entries) if (entry.id > afterId && entry.target === target) count += 1;
    if (entries.length < 500 || entries.at(-1).id <= afterId) return `${count}`;
    before = entries.at(-1).id;
  }
  return `at least ${count}`;
}

/** An agent's socket with a freshly enrolled identity of its own (not the suite's real agent). */
async function floodAgent(stack, result) {
  const hostname = `flood-${Date.now().toString(36)}`;
  const reg = await api(stack.server.url, 'POST', '/api/agent/register', undefined, {
    key: stack.key,
    hostname,
    os: 1,
    version: '2.0.0',
  });
  if (reg.status !== 201) throw new Error(`enrolling the flooding agent: ${reg.status} ${JSON.stringify(reg.body)}`);
  const ws = new WebSocket(`${stack.server.url.replace('http', 'ws')}${AGENT_CONNECT_PATH}`, {
    headers: { [AGENT_ID_HEADER]: reg.body.id, [AGENT_CREDENTIAL_HEADER]: reg.body.credential },
    perMessageDeflate: false,
  });
  const agent = { ws, id: reg.body.id, hostname, closed: undefined };
  ws.on('close', (code, reason) => (agent.closed = { code, reason: reason.toString(), at: Date.now() }));
  ws.on('error', (error) => result.notes.push(`flooding socket: ${error.message}`));
  ws.on('message', () => undefined);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return agent;
}

/**
 * `kind` 'hello': 10,000 hello messages a second; 'frames': 10,000 binary frames a second for a stream
 * id the server never opened. The agent must be closed with a reason, the API must not stall, and the
 * audit trail must not get an entry per message.
 */
export async function agentFlood(stack, result, options, kind) {
  const seconds = options.smoke ? 1 : 5;
  const auditFrom = await newestAudit(stack);
  const agent = await floodAgent(stack, result);
  const hello = JSON.stringify({ t: 'hello', hostname: agent.hostname, os: 1, version: '2.0.0' });
  if (kind === 'frames') agent.ws.send(hello);
  const frame = Buffer.alloc(4 + 1024, 0x61);
  frame.writeUInt32BE(0x7fff_fff0, 0);
  const message = kind === 'hello' ? hello : frame;
  const probe = latencyProbe(stack.server.url, stack.token, '/api/agent', 200);
  const started = Date.now();
  let sent = 0;
  while (Date.now() - started < seconds * 1000 && !agent.closed) {
    const due = Math.floor(((Date.now() - started) / 1000) * RATE);
    while (sent < due && agent.ws.readyState === WebSocket.OPEN && agent.ws.bufferedAmount < 1 << 20) {
      agent.ws.send(message);
      sent += 1;
    }
    await sleep(5);
  }
  const floodMs = Date.now() - started;
  await eventually(
    async () => agent.closed,
    (c) => c !== undefined,
    5000,
  );
  await sleep(1000);
  const api_ = await probe.stop();
  // What the server did, before the suite closes its end.
  const closed = agent.closed;
  const realAgentUp = await agentListed(stack);
  agent.ws.terminate();
  const rows = await auditRows(stack, auditFrom, agent.id);
  const what = kind === 'hello' ? 'hellos' : 'frames for an unknown stream';
  result.happened.push(`${sent.toLocaleString('en')} ${what} in ${secs(floodMs)}`);
  if (closed?.reason)
    result.happened.push(`closed ${closed.code} "${closed.reason}" after ${secs(closed.at - started)}`);
  else if (closed) result.happened.push(`closed ${closed.code} without a reason`);
  else result.happened.push('not closed');
  result.happened.push(`API meanwhile p50 ${ms(api_.p50)} p99 ${ms(api_.p99)} max ${ms(api_.max)}`);
  result.happened.push(`${rows} audit entries for the flooding agent`);
  if (!closed?.reason) result.failures.push('the flooding agent was not closed with a reason');
  if (realAgentUp !== true) {
    result.failures.push('the real agent (not flooding) was disconnected by the flood');
    await eventually(
      () => agentListed(stack),
      (c) => c === true,
      60_000,
    );
  }
  if (api_.max > 3000) result.failures.push(`the API stalled ${secs(api_.max)} during the flood`);
  if (api_.samples.some((s) => s.status !== 200)) result.failures.push('the API failed calls during the flood');
  if (Number(rows.replace(/\D/g, '')) > 20)
    result.failures.push(`the flood wrote ${rows} audit entries (not one per message)`);
  const after = await sshWorks(stack);
  if (!after.ok) result.failures.push(`an ssh session through the real agent failed after the flood: ${after.detail}`);
  result.lost = 'nothing';
}

/** Bytes `head -c N | base64` prints: 4 per 3 (rounded up) and a newline every 76. */
const base64Size = (n) => {
  const encoded = 4 * Math.ceil(n / 3);
  return encoded + Math.ceil(encoded / 76);
};

/** Whether a watcher was dropped (told so, or its socket closed), and how it is described. */
async function dropped(w, name, waitMs) {
  w.resume();
  await eventually(
    async () => w.closed !== undefined || w.reasons().length > 0,
    (d) => d,
    waitMs,
  );
  const told = w.reasons();
  const read = `${(w.outBytes / 1048576).toFixed(0)} MiB`;
  if (!w.closed && told.length === 0) return { dropped: false, text: `${name} never dropped (read ${read})` };
  return { dropped: true, told, text: `${name} dropped after ${read}, told: ${told.join(' / ') || 'nothing'}` };
}

/**
 * Two watchers of a session printing `head -c N /dev/urandom | base64`: a slow one stops reading for a
 * few seconds (a stalled laptop), a dead one never reads during the flood. The server must drop them
 * rather than buffer for them (the slow one told why; the dead one cannot hear), record and deliver
 * every byte, and keep the API and other logins going.
 */
export async function slowWatcher(stack, result, options) {
  const inMib = options.smoke ? 64 : 1024;
  const pauseMs = options.smoke ? 2000 : 5000;
  const expected = base64Size(inMib * 1048576);
  const before = await recordingIds(stack);
  const flood = ssh(stack, `sleep 3; head -c ${inMib}M /dev/urandom | base64`, { sink: true, timeoutMs: 900_000 });
  const id = await newRecording(stack, before);
  if (!id) {
    result.failures.push('the flood session got no recording');
    flood.child.kill('SIGKILL');
    return;
  }
  const slow = watcher(stack.server.url, stack.token, id);
  const dead = watcher(stack.server.url, stack.token, id);
  for (const w of [slow, dead])
    if (!(await w.attached)) result.failures.push(`a watcher could not connect: ${w.connectError}`);
  await sleep(300);
  slow.pause();
  dead.pause();
  const probe = latencyProbe(stack.server.url, stack.token, '/api/agent', 250);
  await eventually(
    async () => flood.bytes,
    (b) => b > 0 || flood.child.exitCode !== null,
    60_000,
  );
  await sleep(pauseMs);
  const slowOutcome = dropped(slow, `slow watcher (paused ${secs(pauseMs)})`, 5000);
  // Someone else logs in while the flood runs.
  await eventually(
    async () => flood.bytes,
    (b) => b > expected / 4 || flood.child.exitCode !== null,
    600_000,
  );
  const otherAt = Date.now();
  const other = await sshWorks(stack);
  const done = await flood.done;
  // The flood's end is work too (finishing and indexing its recording): the API is watched through it.
  await sleep(options.smoke ? 5000 : 10_000);
  const api_ = await probe.stop();
  // What the server and the agent said, when something went wrong (to tell a stalled server from a
  // stalled runner or a lost stream).
  if (!other.ok || api_.max > 5000) {
    const slowest = api_.samples.reduce((a, b) => (b.ms > a.ms ? b : a), { ms: 0, at: 0 });
    result.happened.push(
      `slowest API call started ${((slowest.at - otherAt) / 1000).toFixed(1)} s after the other login began ` +
        `(it took ${secs(other.ms ?? 0)}); flood bytes ended ${((flood.lastByteAt - otherAt) / 1000).toFixed(1)} s after it`,
    );
    result.happened.push(`server log: ${stack.server.tail(12).replace(/\s+/g, ' ').slice(-1500)}`);
    result.happened.push(`agent output: ${stack.agent.output.slice(-1500).replace(/\s+/g, ' ')}`);
  }
  const rate = flood.bytes / 1048576 / (Math.max(1, flood.lastByteAt - flood.firstByteAt) / 1000);
  result.happened.push(
    `${(flood.bytes / 1048576).toFixed(0)} MiB of ${(expected / 1048576).toFixed(0)} MiB output delivered at ${rate.toFixed(0)} MiB/s`,
  );
  if (done.code !== 0 || flood.bytes !== expected)
    result.failures.push(
      `the flooding session got ${flood.bytes} of ${expected} bytes (exit ${done.code ?? done.signal})`,
    );
  result.happened.push(
    `API meanwhile p99 ${ms(api_.p99)} max ${ms(api_.max)}; another login ${other.ok ? `took ${secs(other.ms)}` : 'FAILED'}`,
  );
  if (!other.ok) result.failures.push(`another ssh login during the flood failed: ${other.detail}`);
  if (api_.max > 5000) result.failures.push(`the API stalled ${secs(api_.max)} during the flood`);
  const s = await slowOutcome;
  result.happened.push(s.text);
  if (s.dropped && s.told.length === 0) result.failures.push('the slow watcher was dropped without a reason');
  // The dead watcher reads what waited for it first (up to its 8 MiB bound and the kernel's buffers),
  // then hears why it was dropped: on a busy machine that can take more than 10 s.
  const d = await dropped(dead, 'dead watcher', 30_000);
  result.happened.push(d.text);
  if (!d.dropped) result.failures.push('the watcher that never read was never dropped');
  slow.close();
  dead.close();
  const ended = await recordingEnded(stack, id, 60_000);
  const verdict = ended.ended ? await verify(stack, id) : { ok: false, status: 'still live', message: '' };
  result.happened.push(`recording verify: ${verdict.status} in ${secs(verdict.ms ?? 0)}`);
  if (!verdict.ok) result.failures.push(`recording verify: ${verdict.status} ${verdict.message}`);
  result.lost = flood.bytes === expected ? 'nothing' : `${expected - flood.bytes} bytes`;
}
