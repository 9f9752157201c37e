// 20,000 silent TCP connections to the SSH gateway from one loopback address (127.0.0.2), opened as fast
// as the machine allows, held by child processes (each has its own open-file limit). Meanwhile the API
// and a normal ssh login from 127.0.0.1 must work; the server should close the silent ones by itself.
import path from 'node:path';
import { api, eventually } from '../lib/clients.mjs';
import { ROOT, own, sleep } from '../lib/processes.mjs';
import { sshWorks } from '../lib/stack.mjs';

const FLOOD_ADDRESS = '127.0.0.2';
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Starts one holder process; answers it with its latest counts. */
function holder(port, count) {
  const child = own(
    process.execPath,
    [path.join(ROOT, 'faults/silent-holder.mjs'), JSON.stringify({ port, count, localAddress: FLOOD_ADDRESS })],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const h = { child, counts: { attempted: 0, open: 0, maxOpen: 0, closedByServer: 0, errors: {}, done: false } };
  let buffer = '';
  child.stdout.on('data', (chunk) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop();
    for (const line of lines) if (line) h.counts = JSON.parse(line);
  });
  h.exited = new Promise((resolve) => child.once('exit', resolve));
  return h;
}

/** The holders' counts added up. */
function total(holders) {
  const sum = { attempted: 0, open: 0, maxOpen: 0, closedByServer: 0, errors: {}, done: true, medians: [] };
  for (const { counts } of holders) {
    for (const key of ['attempted', 'open', 'maxOpen', 'closedByServer']) sum[key] += counts[key];
    for (const [code, n] of Object.entries(counts.errors)) sum.errors[code] = (sum.errors[code] ?? 0) + n;
    sum.done &&= counts.done;
    if (counts.closeMedianMs !== null && counts.closeMedianMs !== undefined) sum.medians.push(counts.closeMedianMs);
  }
  return sum;
}

const errorsText = (errors) =>
  Object.entries(errors)
    .map(([code, n]) => `${n} ${code}`)
    .join(', ') || 'none';

export async function silentConnections(stack, result, options) {
  const count = options.smoke ? 2000 : 20_000;
  const holdMs = options.smoke ? 10_000 : 90_000;
  const per = options.smoke ? count : Math.ceil(count / 3);
  const holders = [];
  for (let opened = 0; opened < count; opened += per)
    holders.push(holder(stack.server.sshPort, Math.min(per, count - opened)));
  const started = Date.now();
  try {
    await eventually(
      async () => total(holders),
      (t) => t.done && t.attempted >= count,
      60_000,
    );
    const opened = total(holders);
    result.happened.push(
      `${opened.attempted.toLocaleString('en')} connections from ${FLOOD_ADDRESS} in ${secs(Date.now() - started)}: ` +
        `${opened.maxOpen.toLocaleString('en')} open at most, refusals: ${errorsText(opened.errors)}`,
    );
    // While they are held: the API, and logins from another address and from the same one.
    const health = await api(stack.server.url, 'GET', '/api/agent', stack.token, undefined, 10_000);
    const other = await sshWorks(stack, { bind: '127.0.0.1' });
    const same = await sshWorks(stack, { bind: FLOOD_ADDRESS });
    result.happened.push(
      `meanwhile API ${health.status || 'no answer'} in ${Math.round(health.ms)} ms; ` +
        `ssh from 127.0.0.1 ${other.ok ? `ok in ${secs(other.ms)}` : `failed (${other.detail})`}; ` +
        `ssh from ${FLOOD_ADDRESS} ${same.ok ? `ok in ${secs(same.ms)}` : `refused (${same.detail || 'no detail'})`}`,
    );
    if (health.status !== 200) result.failures.push(`the API answered ${health.status || 'nothing'} during the storm`);
    if (!other.ok) result.failures.push('an ssh login from another address failed during the storm');
    await sleep(Math.max(0, holdMs - (Date.now() - started)));
    const held = total(holders);
    const median = held.medians.length ? Math.max(...held.medians) : undefined;
    result.happened.push(
      `after ${secs(Date.now() - started)}: ${held.open.toLocaleString('en')} still open, ` +
        `${held.closedByServer.toLocaleString('en')} closed by the server${median !== undefined ? ` (median after ${secs(median)})` : ''}`,
    );
    // Full run: the login deadline has closed every one. Smoke (10 s, shorter than any deadline): the
    // limit of connections still logging in from one address has closed most of them.
    if (!options.smoke && held.open > 0)
      result.failures.push(`${held.open} silent connections were still open after ${secs(holdMs)} (no login deadline)`);
    if (options.smoke && held.open > count / 2)
      result.failures.push(`${held.open} of ${count} silent connections from one address were still open (no limit)`);
  } finally {
    for (const h of holders) h.child.stdin.end();
    await Promise.all(holders.map((h) => Promise.race([h.exited, sleep(10_000)])));
    for (const h of holders) if (h.child.exitCode === null) h.child.kill('SIGKILL');
  }
  await sleep(2000);
  const after = await sshWorks(stack);
  if (!after.ok) result.failures.push(`an ssh login after the storm failed: ${after.detail}`);
  result.lost = 'nothing';
}
