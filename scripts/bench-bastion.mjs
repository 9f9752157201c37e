// Gatehouse against the bastion it replaces, in one run (issue 19): runs the gateway's bench (bulk,
// session setup, keystroke echo: direct OpenSSH, an OpenSSH `ssh -J` jump host and Gatehouse side by
// side, and its other parts), one instance's scale (1,000 sessions, 50 new a second), the sessions
// screen and dashboard at 1,000,000 recordings in Chromium, and search across recordings, one after
// the other, then prints every target's figure from this run with its verdict.
//
//   node scripts/bench-bastion.mjs                 the run and its table
//   node scripts/bench-bastion.mjs --record        the same, and the table written into
//                                                  docs/benchmarks.md, unless the machine was busy
//   node scripts/bench-bastion.mjs --only gateway,sessions     some of the parts (gateway, scale,
//                                                  sessions, search); the parts' own BENCH_* settings
//                                                  pass through (docs/benchmarks.md)
//
// The machine's load average is printed before each part. A part starts once the 1-minute load is
// at most the number of cores (waiting up to BENCH_SETTLE_SECONDS, default 180, for the previous
// part's own load to decay); `--record` refuses to write the figures when any part started above
// it, or when a part failed.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const docs = path.join(root, 'docs', 'benchmarks.md');
/** Where a recorded run goes in docs/benchmarks.md: after this line, newest first. */
const MARKER = '<!-- bench-bastion --record writes its runs below this line, newest first -->';
const cores = os.cpus().length;
const PARTS = {
  gateway: ['scripts/bench-gateway.mjs'],
  scale: ['scripts/bench-scale.mjs'],
  sessions: ['scripts/bench-sessions.mjs'],
  search: ['scripts/bench-search.mjs'],
};
const onlyAt = process.argv.indexOf('--only');
const chosen = onlyAt >= 0 ? process.argv[onlyAt + 1].split(',') : Object.keys(PARTS);
const unknown = chosen.filter((p) => !PARTS[p]);
if (unknown.length > 0) {
  console.error(`unknown part ${unknown.join(', ')}: the parts are ${Object.keys(PARTS).join(', ')}`);
  process.exit(2);
}
const record = process.argv.includes('--record');
const settleSeconds = Number(process.env.BENCH_SETTLE_SECONDS ?? 180);
const loads = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const figures = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-bastion-')), 'targets.jsonl');

/** Waits until the 1-minute load average is at most the core count; answers the load it started at. */
async function settle() {
  const until = Date.now() + settleSeconds * 1000;
  while (os.loadavg()[0] > cores && Date.now() < until) await new Promise((r) => setTimeout(r, 5000));
  return os.loadavg()[0];
}

const started = new Date();
const runs = [];
for (const part of chosen) {
  const load = await settle();
  console.log(`\n=== ${part}: node ${PARTS[part].join(' ')}   load average ${loads()} (${cores} cores)`);
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, PARTS[part], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, BENCH_TARGETS_FILE: figures },
    });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });
  runs.push({ part, load, code });
  if (code !== 0) console.log(`=== ${part} failed (exit ${code}); the run goes on with the next part`);
}
const ended = new Date();

const results = fs.existsSync(figures)
  ? fs
      .readFileSync(figures, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
fs.rmSync(path.dirname(figures), { recursive: true, force: true });
const show = (v, unit) =>
  Number.isFinite(v)
    ? `${v.toFixed(unit === '' ? 3 : unit === 'ms' && v < 10 ? 2 : 1)}${unit ? ` ${unit}` : ''}`
    : 'none';
const rows = results.map((r) => [
  r.name,
  show(r.value, r.unit),
  `${r.want === 'at most' ? '≤' : '≥'} ${r.limit}${r.unit ? ` ${r.unit}` : ''}`,
  r.met ? 'met' : 'NOT MET',
  r.detail,
]);
const minute = (d) => d.toISOString().slice(0, 16).replace('T', ' ');
const heading = `One run, ${minute(started)}–${minute(ended).slice(11)} UTC, ${cores} cores; load average at each part's start: ${runs.map((r) => `${r.part} ${r.load.toFixed(2)}`).join(', ')}`;
const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length), 6));
console.log(`\n${heading}`);
for (const r of rows)
  console.log(
    `  ${r
      .slice(0, 4)
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')}  ${r[4]}`,
  );
const failed = runs.filter((r) => r.code !== 0);
for (const r of failed) console.log(`  ${r.part} failed (exit ${r.code}): its figures are missing or partial`);
console.log(`  ${rows.filter((r) => r[3] === 'met').length} of ${rows.length} targets met`);

if (record) {
  const busy = runs.filter((r) => r.load > cores);
  if (busy.length > 0 || failed.length > 0 || rows.length === 0) {
    const why = [
      ...busy.map((r) => `${r.part} started at load ${r.load.toFixed(2)}, above the ${cores} cores`),
      ...failed.map((r) => `${r.part} failed`),
      ...(rows.length === 0 ? ['no figures'] : []),
    ];
    console.log(`\nnot written to docs/benchmarks.md: ${why.join('; ')}`);
    process.exit(1);
  }
  // The parts' settings from the environment, so the line says how to run the same again.
  const settings = Object.entries(process.env)
    .filter(([k]) => k.startsWith('BENCH_') && k !== 'BENCH_TARGETS_FILE')
    .map(([k, v]) => `${k}=${v} `)
    .join('');
  const cell = (c) => c.replaceAll('|', '\\|');
  const table = [
    `### ${heading}`,
    '',
    `\`${settings}node scripts/bench-bastion.mjs --record${onlyAt >= 0 ? ` --only ${chosen.join(',')}` : ''}\``,
    '',
    '| target | measured | limit | verdict | from |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
    '',
  ].join('\n');
  const text = fs.readFileSync(docs, 'utf8');
  const at = text.indexOf(MARKER);
  fs.writeFileSync(
    docs,
    at < 0
      ? `${text}\n${MARKER}\n\n${table}`
      : `${text.slice(0, at + MARKER.length)}\n\n${table}${text.slice(at + MARKER.length)}`,
  );
  // Laid out as the repository's format check wants it (tables aligned).
  spawnSync(path.join(root, 'node_modules', '.bin', 'prettier'), ['--write', docs], { stdio: 'ignore' });
  console.log(`\nwritten to ${path.relative(root, docs)}`);
}
process.exit(failed.length > 0 ? 1 : 0);
