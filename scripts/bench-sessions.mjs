// `npm run bench` (sessions part): the session list at 1,000,000 recordings in PostgreSQL, through
// the built server over HTTP, and the sessions screen in Debian's Chromium on that data. Prints
// percentiles and ratios to the targets (150 ms a page at p95; the screen usable within 1.5 s).
// Run after `npm run build`. DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) gets a
// fresh schema, dropped at the end (kept with BENCH_KEEP_SCHEMA=1, to EXPLAIN queries on it).
// BENCH_RECORDINGS changes the row count. BENCH_WEB_DIRS=dirA,dirB compares console builds: one server
// per folder on the same schema, the screen's loads interleaved between them (A, B, A, B, …).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../apps/server/dist/db/client.js';
import { ADMIN, startBenchServer } from './bench-server.mjs';
import { reportTarget } from './bench-targets.mjs';

const URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS = Number(process.env.BENCH_RECORDINGS ?? 1_000_000);
const HOSTS = 200;
const RUNS = 40;
// 21, so that p95 is not simply the slowest run (nearest rank: the 20th of 21).
const SCREEN_RUNS = 21;
const CHROMIUM = '/usr/bin/chromium';

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (v) => `${v.toFixed(1)} ms`;
const report = (name, samples, targetMs, summary) => {
  const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(samples, p));
  if (summary)
    reportTarget({
      name: `${summary} at ${ROWS.toLocaleString('en')} recordings, p95`,
      value: p95,
      limit: targetMs,
      want: 'at most',
      unit: 'ms',
      detail: `n=${samples.length}, p50 ${ms(p50)}`,
    });
  const ratio = targetMs ? `  p95/target ${(p95 / targetMs).toFixed(3)} (target ${targetMs} ms)` : '';
  console.log(`${name.padEnd(58)} n=${samples.length}  p50 ${ms(p50)}  p95 ${ms(p95)}  p99 ${ms(p99)}${ratio}`);
};

/** Hosts, then the recordings in slices of 100,000 (one INSERT … SELECT generate_series each). */
async function fill(database) {
  await database.query(
    `INSERT INTO agents (hostname, os, created_at)
     SELECT 'host-' || lpad(i::text, 3, '0') || '.bench', CASE WHEN i % 10 = 0 THEN 2 ELSE 1 END, now() - interval '400 days'
     FROM generate_series(0, ${HOSTS - 1}) AS i`,
  );
  const slice = 100_000;
  const began = performance.now();
  for (let from = 0; from < ROWS; from += slice) {
    // Mostly ssh over the last year, in the order they started (as a server appends them, so the
    // table's physical order follows started_on); 1 in 1,000 live (started in the last two days); every host,
    // 500 users and 300 tunnel names spread by multiplicative hashing of the row number.
    await database.query(
      `WITH hosts AS (SELECT id, hostname, (row_number() OVER (ORDER BY hostname) - 1)::int AS n FROM agents WHERE hostname LIKE 'host-%.bench'),
       rows AS (
         SELECT i,
           CASE WHEN i % 50 = 0 THEN 'rdp' WHEN i % 97 = 0 THEN 'generic' WHEN i % 193 = 0 THEN 'agent' ELSE 'ssh' END AS type,
           i % 1000 = 7 AS live,
           ((i * 2654435761) % ${HOSTS})::int AS host
         FROM generate_series($1::bigint, $2::bigint) AS i
       ),
       timed AS (
         SELECT rows.*, CASE WHEN live THEN now() - random() * interval '2 days' ELSE now() - interval '365 days' + (i::float8 / ${ROWS}) * interval '364 days' + random() * interval '20 minutes' END AS started
         FROM rows
       )
       INSERT INTO recordings (type, agent_id, hostname, user_email, definition_name, started_on, ended_on, last_flush_at,
                               has_video, video_bytes, video_final, width, height, storage_path, bytes, chunks, end_reason)
       SELECT t.type, h.id, h.hostname, 'user' || ((t.i * 7919) % 500) || '@bench.example', 'tunnel-' || ((t.i * 31) % 300),
              t.started,
              CASE WHEN t.live THEN NULL ELSE t.started + interval '1 second' * (10 + power(random(), 3) * 14400) END,
              CASE WHEN t.live THEN now() + interval '1 day' ELSE t.started END,
              t.type = 'rdp', CASE WHEN t.type = 'rdp' THEN 250000 ELSE 0 END, t.type = 'rdp' AND NOT t.live, 120, 40,
              '/nonexistent/' || t.i || '.cast', 4000 + (t.i % 9000), 10 + (t.i % 90),
              CASE WHEN t.live THEN NULL ELSE 'client-closed' END
       FROM timed t JOIN hosts h ON h.n = t.host`,
      [from + 1, Math.min(ROWS, from + slice)],
    );
    const done = Math.min(ROWS, from + slice);
    const rate = done / ((performance.now() - began) / 1000);
    process.stdout.write(`\rrecordings inserted: ${done} (${Math.round(rate)}/s)${done === ROWS ? '\n' : ''}`);
  }
  await database.exec('ANALYZE recordings; ANALYZE agents');
}

/** Times calls of one URL after two warm-up calls (10 runs when a call takes seconds); fails on an answer that is not 200. */
async function timeCalls(base, token, url, runs = RUNS) {
  const samples = [];
  for (let i = 0; i < runs + 2; i += 1) {
    const start = performance.now();
    const res = await fetch(`${base}${url}`, { headers: { 'authentication-token': token } });
    const body = await res.json();
    const elapsed = performance.now() - start;
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    if (i >= 2) samples.push(elapsed);
    else if (elapsed > 1000) runs = Math.min(runs, 10);
    if (i === 0 && Array.isArray(body.recordings) && body.recordings.length === 0 && !url.includes('zz-'))
      throw new Error(`${url} found no recordings`);
  }
  return samples;
}

/** Signs in through the sign-in screen (twice at most: a console being rebuilt meanwhile fails once); answers the stored state. */
async function signedIn(browser, base) {
  for (let attempt = 1; ; attempt += 1) {
    const page = await browser.newPage();
    try {
      await page.goto(`${base}/#/signin`);
      await page.getByLabel(/email/i).fill(ADMIN.email);
      await page.getByLabel(/^password/i).fill(ADMIN.password);
      await page.getByRole('button', { name: /sign in/i }).click();
      await page.locator('.MuiDataGrid-row[data-id]').first().waitFor({ timeout: 30_000 });
      return await page.context().storageState();
    } catch (error) {
      if (attempt === 2) throw error;
    } finally {
      await page.close();
    }
  }
}

/**
 * BENCH_SCREEN_TRACE=FILE: the last run of the first build is traced (Chromium's trace, with
 * screenshots, to FILE) and, with BENCH_SCREEN_PROFILE=1, its page's JavaScript sampled (FILE.cpuprofile).
 * Answers the function that ends both.
 */
const TRACE = process.env.BENCH_SCREEN_TRACE;
async function startTrace(browser, context, page) {
  await browser.startTracing(page, { path: TRACE, screenshots: true });
  const cdp = process.env.BENCH_SCREEN_PROFILE === '1' ? await context.newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  return async () => {
    if (cdp) fs.writeFileSync(`${TRACE}.cpuprofile`, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    await browser.stopTracing();
  };
}
/**
 * A new window keeps Chromium busy for a while on its own (here its omnibox and other WebUI load in
 * their own renderer, 150–870 ms after the window opens, on the same two cores). A user opens the
 * console in a browser that is already running, so the screen's target is measured from a
 * navigation in a window that has had this long to settle; the time from the window's opening is
 * printed beside it.
 */
const SETTLE = Number(process.env.BENCH_SCREEN_SETTLE ?? 2000);

/** BENCH_SCREEN_DETAIL=1: each run's milestones, read in the page (ms from its navigation's start). */
const DETAIL = process.env.BENCH_SCREEN_DETAIL === '1';
/** Runs in the page before its scripts: notes when the first row appears and the main thread's long tasks. */
function watchMilestones() {
  const { document, MutationObserver } = globalThis;
  const marks = { longTasks: 0, longest: 0 };
  globalThis.__benchMarks = marks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      marks.longTasks += entry.duration;
      marks.longest = Math.max(marks.longest, entry.duration);
    }
  }).observe({ type: 'longtask', buffered: true });
  // When each part of the screen first enters the DOM: the layout, the page's heading, the grid, its headers, a row.
  const parts = {
    nav: 'nav',
    heading: 'main h1',
    grid: '.MuiDataGrid-root',
    headers: '.MuiDataGrid-columnHeader',
    row: '.MuiDataGrid-row[data-id]',
  };
  new MutationObserver((_, observer) => {
    for (const [name, selector] of Object.entries(parts))
      if (marks[name] === undefined && document.querySelector(selector)) marks[name] = performance.now();
    if (marks.row !== undefined) observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
}
/** What watchMilestones saw, with the resources the screen waits for, as one line. */
function readMilestones() {
  const marks = globalThis.__benchMarks ?? {};
  const at = (v) => (v === undefined ? '-' : Math.round(v));
  const resource = (pattern) => performance.getEntriesByType('resource').find((e) => pattern.test(e.name));
  const timing = (name, pattern) => {
    const e = resource(pattern);
    return e ? `${name} ${at(e.startTime)}→${at(e.responseEnd)}` : `${name} -`;
  };
  const paint = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
  const nav = performance.getEntriesByType('navigation')[0];
  return [
    `html ${at(nav?.responseEnd)}`,
    timing('vendor', /\/vendor-[^/]*\.js$/),
    timing('page chunk', /\/sessions-page-[^/]*\.js$/),
    timing('grid', /\/grid-styles-[^/]*\.js$/),
    timing('list', /\/api\/recording\?/),
    timing('me', /\/api\/user\/me/),
    `nav ${at(marks.nav)}, heading ${at(marks.heading)}, grid ${at(marks.grid)}, headers ${at(marks.headers)}`,
    `first paint ${at(paint?.startTime)}`,
    `row ${at(marks.row)}`,
    `long tasks ${at(marks.longTasks)} (longest ${at(marks.longest)})`,
  ].join(', ');
}

/**
 * One opening of #/recordings in a new browser context (nothing cached, the token stored): the time
 * from navigation to the first row visible. settle: ms to wait after the window opens (0: none).
 */
async function openScreen(browser, state, base, { settle, trace, run }) {
  const context = await browser.newContext({ storageState: state, viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    const stopTrace = trace ? await startTrace(browser, context, page) : undefined;
    if (settle) await new Promise((resolve) => setTimeout(resolve, settle));
    if (DETAIL) await page.addInitScript(watchMilestones);
    const start = performance.now();
    await page.goto(`${base}/#/recordings`);
    const row = page.locator('.MuiDataGrid-row[data-id]').first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    const elapsed = performance.now() - start;
    await stopTrace?.();
    if (DETAIL && run > 0)
      console.log(
        `  run ${run}${settle ? '' : ' (window just opened)'}: ${Math.round(elapsed)} ms; in the page: ${await page.evaluate(readMilestones)}`,
      );
    // Usable: the first row answers a click with its detail panel.
    await row.click();
    await page.getByRole('dialog').or(page.locator('.MuiDrawer-paper')).first().waitFor({ timeout: 10_000 });
    return elapsed;
  } finally {
    await context.close();
  }
}

/**
 * Sessions screen, SCREEN_RUNS times per build (after one warm-up), the builds taking turns: each
 * time opened in a window that has settled and in one just opened. Answers per build { settled, cold }.
 */
async function screenTimes(bases) {
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`sessions screen: skipped, ${CHROMIUM} is missing (scripts/ensure-chromium.sh installs it)`);
    return undefined;
  }
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    const states = [];
    for (const base of bases) states.push(await signedIn(browser, base));
    const samples = bases.map(() => ({ settled: [], cold: [] }));
    for (let run = 0; run < SCREEN_RUNS + 1; run += 1)
      for (const [b, base] of bases.entries()) {
        const trace = Boolean(TRACE) && run === SCREEN_RUNS && b === 0;
        const settled = await openScreen(browser, states[b], base, { settle: SETTLE, trace, run });
        const cold = await openScreen(browser, states[b], base, { settle: 0, trace: false, run });
        if (run > 0) {
          samples[b].settled.push(settled);
          samples[b].cold.push(cold);
        }
      }
    return samples;
  } finally {
    await browser.close();
  }
}

const schema = `bench_sessions_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: URL });
await admin.connect();
await admin.query(`CREATE SCHEMA ${schema}`);
const database = await openDatabase({ url: URL, searchPath: schema });
// Interrupted: the schema goes all the same.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    void admin.query(`DROP SCHEMA ${schema} CASCADE`).finally(() => process.exit(130));
  });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-sessions-'));
const webDirs = (process.env.BENCH_WEB_DIRS ?? 'apps/web/dist').split(',').map((dir) => path.resolve(dir));
const hasConsole = webDirs.every((dir) => fs.existsSync(path.join(dir, 'index.html')));
if (!hasConsole && process.env.BENCH_WEB_DIRS)
  throw new Error(`BENCH_WEB_DIRS: no index.html in one of ${webDirs.join(', ')}`);
const { server, call } = await startBenchServer(dataDir, { database, webDir: hasConsole ? webDirs[0] : undefined });
/** The other builds' servers, on the same database (started once the rows are in). */
const others = [];
try {
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(`Sessions at ${ROWS.toLocaleString('en')} recordings (PostgreSQL schema ${schema}, ${HOSTS} hosts)`);
  console.log(`${os.cpus().length} cores, load average ${load()}`);
  await fill(database);
  const token = (await call('POST', '/api/login', undefined, ADMIN)).response.user.authentication_token;
  const base = server.url;
  const [host] = await database.query(`SELECT id FROM agents WHERE hostname = 'host-042.bench'`);
  const first = await call('GET', '/api/recording?limit=50', token);
  const cursor = encodeURIComponent(first.next_cursor);
  const day = 86_400_000;
  const weekStart = new Date(Date.now() - 60 * day).toISOString();
  const weekEnd = new Date(Date.now() - 53 * day).toISOString();
  const pages = [
    ['first page (limit 50)', '/api/recording?limit=50'],
    ['second page (cursor)', `/api/recording?limit=50&cursor=${cursor}`],
    ['type=rdp', '/api/recording?limit=50&type=rdp'],
    ['type=agent (0.5%)', '/api/recording?limit=50&type=agent'],
    ['live=true', '/api/recording?limit=50&live=true'],
    ['LongRunning (live, 24 h, since 2001)', '/api/recording?limit=50&live=true&min_duration=86400&start=2001-01-01'],
    ['host=<one of 200>', `/api/recording?limit=50&host=${host.id}`],
    ['user=<one of 500>', '/api/recording?limit=50&user=user123@bench.example'],
    ['q=host-042 (text)', '/api/recording?limit=50&q=host-042'],
    ['q=user123@ (text)', '/api/recording?limit=50&q=user123@'],
    ['q=zz-nothing (text, no match)', '/api/recording?limit=50&q=zz-nothing'],
    ['time window (one week, 60 days ago)', `/api/recording?limit=50&start=${weekStart}&end=${weekEnd}`],
    ['sort=hostname asc', '/api/recording?limit=50&sort=hostname&order=asc'],
    ['spec call (no paging: limit 1000)', '/api/recording'],
  ];
  for (const [name, url] of pages) report(`GET /api/recording ${name}`, await timeCalls(base, token, url), 150);
  report(
    'GET /api/agent/dashboard (30 days)',
    await timeCalls(base, token, '/api/agent/dashboard', 10),
    300,
    'dashboard',
  );
  if (hasConsole) {
    for (const dir of webDirs.slice(1)) {
      const otherData = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-sessions-'));
      // Instances of one deployment share the key that seals the database's secrets.
      fs.copyFileSync(path.join(dataDir, 'secret.key'), path.join(otherData, 'secret.key'));
      others.push({
        server: (await startBenchServer(otherData, { database, webDir: dir })).server,
        dataDir: otherData,
      });
    }
    const screens = await screenTimes([base, ...others.map((o) => o.server.url)]).catch((error) => {
      console.log(`sessions screen: failed: ${error.message.split('\n')[0]}`);
      process.exitCode = 1;
    });
    for (const [b, screen] of (screens ?? []).entries()) {
      const build =
        webDirs.length > 1 ? ` (${path.basename(path.dirname(webDirs[b]))}/${path.basename(webDirs[b])})` : '';
      report(
        `sessions screen: open to first row visible${build}`,
        screen.settled,
        1500,
        b === 0 ? 'sessions screen, first row in Chromium' : undefined,
      );
      report(`  the same from the window's opening${build}`, screen.cold, 1500);
    }
    console.log(`load average at the end ${load()}`);
  } else {
    console.log('sessions screen: skipped, apps/web/dist is missing (npm run build)');
  }
} finally {
  for (const other of others) {
    await other.server.close();
    fs.rmSync(other.dataDir, { recursive: true, force: true });
  }
  await server.close();
  await database.close();
  if (process.env.BENCH_KEEP_SCHEMA === '1')
    console.log(`kept schema ${schema}: DROP SCHEMA ${schema} CASCADE when done`);
  else await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
