// Browser desktops (issue 18, ADR 0010): memory and CPU per concurrent session and input-to-screen
// latency, through the built server, a real agent process and an RDP host (freerdp-shadow-cli on an
// Xvfb, an xterm running `cat` on it so keys echo), with the console in Debian's Chromium; and the
// peer in the same run: the native xfreerdp client straight to the same host (no gateway).
//
//   node scripts/bench-desktop.mjs [--sessions 1,10,25] [--latency-at 1,10] [--peer-at 1,10]
//                                  [--keys 60] [--seconds 10] [--browsers 1] [--strict]
//
// --browsers: at most this many desktops are opened in Chromium (latency is measured in the newest
// of them); the rest are held by RFB readers (openReader) that ask for what noVNC asks for, because
// 25 Chromium pages on the gateway's own two cores are not what 25 users on their own machines cost.
// --peer-at: the sizes at which the native peer runs too (N xfreerdp share one Xvfb, so beyond a
// few it measures that Xvfb; at 25 it did not start on two cores).
//
// --seconds: each measuring window (idle, typing, the whole screen changing); --strict: stop with
// exit code 2 when the load average is above the number of cores (otherwise a warning).
//
// The server runs in a child process of its own (this script with --serve), so its figures are its
// own: the node process and its descendants (Xvfb, xfreerdp, x11vnc, ffmpeg of every desktop), read
// from /proc. Chromium's processes are measured apart and not counted against the gateway.
/* global document, window, requestAnimationFrame -- page.evaluate bodies run in Chromium */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ADMIN, startBenchServer } from './bench-server.mjs';
import { killGroup, spawnGroup, startRdpHost, startXvfb } from './rdp-host.mjs';
import { apiCaller, startAgent } from './bench-ssh-setup.mjs';

const args = process.argv.slice(2);

function option(name, fallback) {
  const at = args.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
  return value;
}
function numbers(text, name) {
  const list = text.split(',').map(Number);
  if (list.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`--${name}: whole numbers from 1, comma-separated`);
  return list;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (v, p) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor((p / 100) * v.length))];
const mib = (kb) => (kb / 1024).toFixed(1);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const CHROMIUM = '/usr/bin/chromium';
/** Stops the native peer's programs while it runs (the run's cleanup calls what is left). */
const peerStops = new Set();
const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
/** The desktop as the host serves it; the browser's viewport leaves the desktop a little less. */
const HOST = { width: 1280, height: 800, colour: '#336699' };
const VIEWPORT = { width: 1280, height: 900 };
/** The host's xterm (80x24 of the default 6x13 font, at the top left): where typed keys echo. */
const TERM = { x: 0, y: 0, width: 488, height: 320 };

// --- /proc -----------------------------------------------------------------------------------------

/** pid → { ppid, comm } of every process now. */
function processTable() {
  const table = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      table.set(Number(entry), { ppid, comm });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/** The pid and all its descendants. */
function tree(pid, table = processTable()) {
  const out = [pid];
  for (let i = 0; i < out.length; i += 1) for (const [child, { ppid }] of table) if (ppid === out[i]) out.push(child);
  return out.filter((p) => p === pid || table.has(p));
}

/** CPU ticks (user + system), RSS and PSS (kB) of a process, or undefined when it is gone. */
function readProcess(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const rss = Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    const pss = Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    return { comm, ticks: Number(f[11]) + Number(f[12]), rss, pss };
  } catch {
    return undefined;
  }
}

/**
 * Measures groups of processes over `seconds` while `during()` runs (if given): CPU as % of one
 * core from the ticks at both ends, RSS and PSS averaged over samples every second. `groups` maps a
 * name to a function answering that group's pids now.
 */
async function measure(groups, seconds, during) {
  const first = {};
  const memory = {};
  for (const [name, pids] of Object.entries(groups)) {
    first[name] = new Map(pids().map((pid) => [pid, readProcess(pid)]));
    memory[name] = [];
  }
  const started = performance.now();
  let stop = false;
  const work = during ? during(() => stop) : Promise.resolve();
  while (performance.now() - started < seconds * 1000) {
    for (const [name, pids] of Object.entries(groups)) {
      let rss = 0;
      let pss = 0;
      const byComm = {};
      for (const pid of pids()) {
        const p = readProcess(pid);
        if (!p) continue;
        rss += p.rss;
        pss += p.pss;
        byComm[p.comm] = (byComm[p.comm] ?? 0) + p.rss;
      }
      memory[name].push({ rss, pss, byComm });
    }
    await sleep(1000);
  }
  stop = true;
  await work;
  const elapsed = (performance.now() - started) / 1000;
  const result = {};
  for (const [name, pids] of Object.entries(groups)) {
    let ticks = 0;
    const cpuByComm = {};
    for (const pid of pids()) {
      const end = readProcess(pid);
      if (!end) continue;
      const begin = first[name].get(pid)?.ticks ?? 0;
      ticks += end.ticks - begin;
      cpuByComm[end.comm] = (cpuByComm[end.comm] ?? 0) + (end.ticks - begin);
    }
    const samples = memory[name];
    const avg = (f) => samples.reduce((s, x) => s + f(x), 0) / Math.max(1, samples.length);
    const comms = new Set(samples.flatMap((s) => Object.keys(s.byComm)));
    result[name] = {
      cpu: (ticks / TICKS / elapsed) * 100,
      rss: avg((s) => s.rss),
      pss: avg((s) => s.pss),
      byComm: Object.fromEntries(
        [...comms].map((c) => [
          c,
          { rss: avg((s) => s.byComm[c] ?? 0), cpu: ((cpuByComm[c] ?? 0) / TICKS / elapsed) * 100 },
        ]),
      ),
    };
  }
  return result;
}

function describe(m, sessions) {
  const per = sessions ? `   per session RSS ${mib(m.rss / sessions)} MiB, CPU ${(m.cpu / sessions).toFixed(1)} %` : '';
  return `RSS ${mib(m.rss)} MiB (PSS ${mib(m.pss)}), CPU ${m.cpu.toFixed(1)} % of one core${per}`;
}
function parts(m) {
  return Object.entries(m.byComm)
    .sort((a, b) => b[1].rss - a[1].rss)
    .map(([c, v]) => `${c} ${mib(v.rss)} MiB ${v.cpu.toFixed(1)} %`)
    .join(', ');
}

// --- the run ----------------------------------------------------------------------------------------

async function main() {
  const SESSIONS = numbers(option('sessions', '1,10,25'), 'sessions');
  const LATENCY_AT = new Set(numbers(option('latency-at', '1,10'), 'latency-at'));
  const KEYS = numbers(option('keys', '60'), 'keys')[0];
  const SECONDS = numbers(option('seconds', '10'), 'seconds')[0];
  const STRICT = args.includes('--strict');
  const BROWSERS = numbers(option('browsers', '1'), 'browsers')[0];
  const PEER_AT = new Set(numbers(option('peer-at', '1,10'), 'peer-at'));

  const cores = os.cpus().length;
  console.log(
    `Browser desktops (issue 18): sessions ${SESSIONS.join(', ')}; latency at ${[...LATENCY_AT].join(', ')}; ` +
      `at most ${BROWSERS} in Chromium, the rest held by RFB readers; the native peer at ${[...PEER_AT].join(', ')}`,
  );
  console.log(`${cores} cores, load average at the start ${load()}`);
  if (os.loadavg()[0] > cores) {
    console.log(
      `WARNING: load average ${os.loadavg()[0].toFixed(2)} is above the ${cores} cores: figures are not comparable`,
    );
    if (STRICT) {
      process.exitCode = 2;
      return;
    }
  }
  const missing = [
    'Xvfb',
    'xfreerdp',
    'x11vnc',
    'xauth',
    'ffmpeg',
    'freerdp-shadow-cli',
    'xterm',
    'xdotool',
    'xsetroot',
  ]
    .filter((p) => {
      try {
        execFileSync('sh', ['-c', `command -v ${p}`], { stdio: 'ignore' });
        return false;
      } catch {
        return true;
      }
    })
    .concat(fs.existsSync(CHROMIUM) ? [] : [CHROMIUM])
    .concat(fs.existsSync('apps/web/dist/index.html') ? [] : ['apps/web/dist (npm run build)']);
  if (missing.length) {
    console.log(`browser desktops: not run, missing ${missing.join(', ')}`);
    process.exitCode = 1;
    return;
  }

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-desktop-'));
  const cleanups = [];
  const cleanup = async () => {
    // The peer's programs, if it was interrupted (SIGINT/SIGTERM) in the middle.
    for (const stop of peerStops) stop();
    for (const fn of cleanups.splice(0).reverse()) {
      try {
        await fn();
      } catch {
        // keep cleaning
      }
    }
    try {
      fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      console.log(`could not remove ${tmp}: ${error.message}`);
    }
  };
  const onSignal = () => {
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await run({ SESSIONS, LATENCY_AT, KEYS, SECONDS, BROWSERS, PEER_AT, tmp, cleanups });
  } catch (error) {
    console.log(`browser desktops: failed: ${error.stack ?? error}`);
    process.exitCode = 1;
  } finally {
    await cleanup();
    console.log(`load average at the end ${load()}`);
  }
}

async function run({ SESSIONS, LATENCY_AT, KEYS, SECONDS, BROWSERS, PEER_AT, tmp, cleanups }) {
  // The RDP host, with the xterm that echoes.
  const host = await startRdpHost(HOST);
  cleanups.push(() => host.stop());
  host.run('xterm', ['-geometry', `80x24+${TERM.x}+${TERM.y}`, '+cm', '-e', 'cat']);
  // No window manager on the host: the xterm is given the keyboard for good (keys typed in any
  // client reach it wherever the host's pointer is).
  const xterm = execFileSync('xdotool', ['search', '--sync', '--onlyvisible', '--class', 'xterm'], {
    env: host.env,
    timeout: 15_000,
  })
    .toString()
    .trim()
    .split('\n')[0];
  execFileSync('xdotool', ['windowfocus', '--sync', xterm, 'mousemove', '100', '100'], { env: host.env });

  // The server, in its own process (group): its descendants are the desktops' programs.
  const maxSessions = Math.max(...SESSIONS);
  const serverChild = spawnGroup(
    process.execPath,
    [fileURLToPath(import.meta.url), '--serve', path.join(tmp, 'data')],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, GATEHOUSE_DESKTOP_MAX: String(Math.max(25, maxSessions)) },
    },
  );
  cleanups.push(async () => {
    serverChild.kill('SIGTERM');
    const exited = new Promise((r) => serverChild.once('exit', r));
    await Promise.race([exited, sleep(10_000)]);
    killGroup(serverChild);
  });
  const { url } = await new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: serverChild.stdout });
    lines.once('line', (line) => resolve(JSON.parse(line)));
    serverChild.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  const call = apiCaller(url, { strict: true });

  // A real agent enrolled with a registration key, the host's port allowed, an rdp definition
  // admitting the administrator.
  const token = (await call('POST', '/api/login', undefined, ADMIN)).response.user.authentication_token;
  const { key } = await call('POST', '/api/apikey', token, { description: 'bench-desktop', uses: 1 });
  const { agent, agentId } = await startAgent({
    url,
    key,
    tmp,
    hostname: 'bench-desktop',
    call,
    token,
    // In its own process group, killed with the run even when it never connects.
    spawnFn: (...args) => {
      const child = spawnGroup(...args);
      cleanups.push(() => killGroup(child));
      return child;
    },
  });
  await call('POST', `/api/agent/${agentId}/config`, token, { whitelist: [host.port] });
  const definition = (
    await call('POST', '/api/tunneldefinition/rdp', token, { name: 'bench desktop', host_id: agentId, port: host.port })
  ).definition;
  const me = (await call('GET', '/api/user', token)).users.find((u) => u.email === ADMIN.email);
  await call('PUT', `/api/tunneldefinition/${definition.id}/users`, token, { users: [me.id] });

  const table = () => processTable();
  const serverPids = () => [serverChild.pid];
  const desktopPids = () => tree(serverChild.pid, table()).filter((p) => p !== serverChild.pid);
  // Chromium: this process's descendants other than the server, the agent, the host and the peer.
  const ours = new Set();
  const chromiumPids = () => {
    const t = table();
    const skip = new Set([...ours].flatMap((pid) => tree(pid, t)));
    return tree(process.pid, t).filter((p) => p !== process.pid && !skip.has(p));
  };
  ours.add(serverChild.pid);
  ours.add(agent.pid);
  for (const pid of tree(process.pid)) if (pid !== process.pid) ours.add(pid); // the host's programs

  console.log(
    `host: freerdp-shadow-cli on Xvfb ${HOST.width}x${HOST.height}, xterm running cat; server ${url} (pid ${serverChild.pid}); agent pid ${agent.pid}`,
  );
  const baseline = await measure({ server: serverPids }, 5);
  console.log(`server before any desktop (5 s): ${describe(baseline.server)}`);

  const events = [];
  const { chromium } = await import('playwright-core');
  // Playwright's own signal handlers would exit before the cleanup below ends the rest.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 120_000,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  browser.on('disconnected', () => events.push('the browser disconnected'));
  cleanups.push(() => browser.close());
  const signInPage = await browser.newPage();
  await signInPage.goto(`${url}/#/signin`, { timeout: 120_000 });
  await signInPage.getByLabel(/email/i).fill(ADMIN.email);
  await signInPage.getByLabel(/^password/i).fill(ADMIN.password);
  await signInPage.getByRole('button', { name: /sign in/i }).click();
  await signInPage.waitForFunction(() => localStorage.getItem('token'), undefined, { timeout: 120_000 });
  const state = await signInPage.context().storageState();
  await signInPage.close();

  const pages = [];
  /** One desktop in its own browser context: the form filled, the host's desktop seen on the canvas. */
  async function openDesktop(index) {
    for (let attempt = 1; ; attempt += 1) {
      const context = await browser.newContext({ storageState: state, viewport: VIEWPORT });
      const page = await context.newPage();
      page.setDefaultTimeout(120_000);
      page.on('crash', () => events.push(`page ${index} crashed (renderer)`));
      page.on('close', () => events.push(`page ${index} closed`));
      try {
        await page.goto(`${url}/#/desktop/${definition.id}`);
        await page.getByLabel(/user name/i).fill('bench');
        await page.getByLabel(/^password/i).fill('bench');
        await page.getByRole('button', { name: /^connect$/i }).click();
        // The desktop is seen when the canvas shows the host's colour (its bottom right corner).
        await page.waitForFunction(
          ([r, g, b]) => {
            const canvas = document.querySelector('[data-testid="desktop-target"] canvas');
            if (!canvas || canvas.width < 100) return false;
            const at = canvas.getContext('2d').getImageData(canvas.width - 5, canvas.height - 5, 1, 1).data;
            return Math.abs(at[0] - r) < 8 && Math.abs(at[1] - g) < 8 && Math.abs(at[2] - b) < 8;
          },
          [0x33, 0x66, 0x99],
          { timeout: 120_000, polling: 250 },
        );
        return { context, page, close: () => context.close() };
      } catch (error) {
        const alive = !page.isClosed();
        await context.close().catch(() => undefined);
        if (attempt >= 2)
          throw new Error(
            `desktop ${index}: ${error.message.split('\n')[0]} (page ${alive ? 'open' : 'closed'}; ${events.join('; ') || 'no crash'})`,
            { cause: error },
          );
        console.log(`desktop ${index}: attempt ${attempt} failed (${error.message.split('\n')[0]}), again`);
      }
    }
  }
  cleanups.push(async () => {
    for (const entry of pages.splice(0)) await entry.close().catch(() => undefined);
  });
  const wsUrl = `${url.replace(/^http/, 'ws')}/api/desktop/connect?definition=${definition.id}`;

  /** Keys typed into the first desktop, 10 a second, Enter after every 30 (cat echoes the line). */
  const typeInBrowser = (page) => async (stopped) => {
    await pointAndFocus(page);
    for (let i = 1; !stopped(); i += 1) {
      await page.keyboard.press(i % 30 === 0 ? 'Enter' : 'k');
      await sleep(100);
    }
  };

  const results = [];
  for (const n of SESSIONS) {
    while (pages.length > n) await pages.pop().close();
    const opening = performance.now();
    while (pages.length < n)
      pages.push(
        pages.length < BROWSERS
          ? await openDesktop(pages.length)
          : await openReader(wsUrl, token, { width: HOST.width, height: HOST.height, screen: VIEWPORT }, pages.length),
      );
    const openSeconds = (performance.now() - opening) / 1000;
    const inBrowser = pages.filter((entry) => entry.page).length;
    const size = await pages[0].page.evaluate(() => {
      const c = document.querySelector('[data-testid="desktop-target"] canvas');
      return { width: c.width, height: c.height };
    });
    await sleep(3000);
    console.log(
      `\n${n} desktop${n > 1 ? 's' : ''} of ${size.width}x${size.height}, ${inBrowser} in Chromium` +
        `${n > inBrowser ? ` and ${n - inBrowser} held by RFB readers (the console's encodings, updates asked every 40 ms)` : ''}` +
        ` (opened in ${openSeconds.toFixed(1)} s), load ${load()}`,
    );
    const groups = { server: serverPids, desktop: desktopPids, chromium: chromiumPids };
    // Keys go to the newest desktop in Chromium (the others idle).
    const typist = pages.filter((entry) => entry.page).at(-1).page;
    const gateway = {
      idle: await measure(groups, SECONDS),
      typing: await measure(groups, SECONDS, typeInBrowser(typist)),
    };
    // Input to screen right after typing (the screen settled), before the whole screen changes.
    let browserLatency;
    if (LATENCY_AT.has(n)) browserLatency = await latencyInBrowser(typist, KEYS);
    gateway.changing = await measure(groups, SECONDS, churn(host));
    // Does the desktop answer as before once the screen is still again?
    await sleep(3000);
    const after = await latencyInBrowser(typist, 1, 30_000);
    if (after.samples.length === 0) process.exitCode = 1;
    for (const [label, m] of Object.entries(gateway)) {
      const gatewayRss = m.server.rss + m.desktop.rss;
      const gatewayCpu = m.server.cpu + m.desktop.cpu;
      const per = perSession(m, baseline, n);
      console.log(
        `  gateway ${label.padEnd(8)} total RSS ${mib(gatewayRss)} MiB, CPU ${gatewayCpu.toFixed(1)} %   per session (desktop programs + server growth) RSS ${mib(per.rss)} MiB, CPU ${per.cpu.toFixed(1)} %`,
      );
      console.log(
        `    server process ${describe(m.server)} (growth over no desktop ${mib((m.server.rss - baseline.server.rss) / n)} MiB per session)`,
      );
      console.log(`    desktop programs ${describe(m.desktop, n)}: ${parts(m.desktop)}`);
      console.log(`    Chromium (not the gateway's) ${describe(m.chromium, inBrowser)}`);
    }
    if (browserLatency)
      console.log(`  input to screen in Chromium (session ${n} of ${n}): ${latencyLine(browserLatency)}`);
    console.log(
      `  3 s after the whole screen stopped changing, one key echoed in Chromium ${after.samples.length ? `in ${after.samples[0].toFixed(0)} ms` : 'NOT within 30 s'}`,
    );

    // The peer: n native xfreerdp clients straight to the same host, in an Xvfb of their own.
    // The peer failing (n native clients in one Xvfb on a saturated machine) leaves the gateway's
    // figures above standing: it is said, the exit code is 1, and the next size is measured.
    if (!PEER_AT.has(n)) {
      results.push({ n, gateway, peer: undefined, browserLatency });
      continue;
    }
    const peer = await nativePeer(host, size, n, LATENCY_AT.has(n) ? KEYS : 0, SECONDS, ours).catch((error) => {
      console.log(`  native peer at ${n}: not measured (${error.message.split('\n')[0]})`);
      process.exitCode = 1;
      return { windows: {}, latency: undefined };
    });
    for (const [label, m] of Object.entries(peer.windows)) {
      console.log(`  native ${label.padEnd(8)} xfreerdp ${describe(m.xfreerdp, n)}; its Xvfb ${describe(m.xvfb)}`);
      const { rss: gatewayRss, cpu: gatewayCpu } = perSession(gateway[label], baseline, n);
      const nativeRss = m.xfreerdp.rss / n;
      const nativeCpu = m.xfreerdp.cpu / n;
      console.log(
        `    ratio gateway/native per session (${label}): RSS ${(gatewayRss / nativeRss).toFixed(2)}, CPU ${nativeCpu > 0 ? (gatewayCpu / nativeCpu).toFixed(2) : 'n/a (native 0 %)'}`,
      );
    }
    if (peer.latency) {
      console.log(`  input to screen, native xfreerdp (client ${n} of ${n}): ${latencyLine(peer.latency)}`);
      if (browserLatency?.samples.length && peer.latency.samples.length)
        console.log(
          `    ratio gateway+Chromium/native: p50 ${(pct(browserLatency.samples, 50) / pct(peer.latency.samples, 50)).toFixed(2)}, p95 ${(pct(browserLatency.samples, 95) / pct(peer.latency.samples, 95)).toFixed(2)}, p99 ${(pct(browserLatency.samples, 99) / pct(peer.latency.samples, 99)).toFixed(2)}`,
        );
    }
    results.push({ n, gateway, peer, browserLatency });
  }
  if (events.some((e) => e.includes('crashed'))) console.log(`browser events: ${events.join('; ')}`);
  return results;
}

/** The encodings the console's noVNC (1.7) asks for, in its order, with its quality 6 and compression 2. */
const NOVNC_ENCODINGS = [1, 7, -260, 16, 21, 5, 2, 6, 0, -32 + 6, -256 + 2, -223, -224];

/**
 * A desktop held open without a browser (beyond --browsers): 25 Chromium pages on the gateway's own
 * two cores are not what 25 users on their own machines cost it. The reader signs in to the same
 * WebSocket as the console (the same hello), makes the RFB handshake, asks for the encodings noVNC
 * asks for, then asks for an incremental update every 40 ms and reads (and drops) whatever comes,
 * so the gateway, x11vnc and FreeRDP do the work a watched desktop costs them.
 */
async function openReader(wsUrl, token, size, index) {
  const { WebSocket } = await import('ws');
  const ws = new WebSocket(wsUrl);
  let buffer = Buffer.alloc(0);
  let answer;
  let wake = () => undefined;
  ws.on('message', (data, binary) => {
    if (binary) buffer = buffer.length ? Buffer.concat([buffer, data]) : data;
    else answer ??= JSON.parse(data.toString());
    wake();
  });
  const closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve(`${code} ${reason}`)));
  const until = async (ready, what) => {
    const deadline = Date.now() + 120_000;
    while (!ready()) {
      if (ws.readyState === WebSocket.CLOSED)
        throw new Error(`reader ${index}: closed (${await closed}) before ${what}`);
      if (Date.now() > deadline) throw new Error(`reader ${index}: no ${what} within 120 s`);
      await new Promise((resolve) => {
        wake = resolve;
        setTimeout(resolve, 200);
      });
    }
  };
  const read = async (n, what) => {
    await until(() => buffer.length >= n, what);
    const out = buffer.subarray(0, n);
    buffer = buffer.subarray(n);
    return out;
  };
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ token, username: 'bench', password: 'bench', ...size }));
  await until(() => answer !== undefined, 'answer to the hello');
  if (!answer.ready) throw new Error(`reader ${index}: refused: ${JSON.stringify(answer)}`);
  if (!(await read(12, 'RFB version')).toString().startsWith('RFB 003.')) throw new Error('not RFB');
  ws.send(Buffer.from('RFB 003.008\n'));
  const types = [...(await read((await read(1, 'security'))[0], 'security types'))];
  if (!types.includes(1)) throw new Error(`reader ${index}: no security None among ${types.join(',')}`);
  ws.send(Buffer.from([1]));
  if ((await read(4, 'security result')).readUInt32BE(0) !== 0) throw new Error(`reader ${index}: security refused`);
  ws.send(Buffer.from([1])); // shared
  const init = await read(24, 'ServerInit');
  const [width, height] = [init.readUInt16BE(0), init.readUInt16BE(2)];
  await read(init.readUInt32BE(20), 'desktop name');
  // As noVNC: 32 bits per pixel, depth 24, true colour, then its encodings.
  const format = Buffer.alloc(20);
  format.writeUInt8(0, 0);
  format.writeUInt8(32, 4);
  format.writeUInt8(24, 5);
  format.writeUInt8(1, 7);
  for (const at of [8, 10, 12]) format.writeUInt16BE(255, at);
  format.writeUInt8(16, 14);
  format.writeUInt8(8, 15);
  ws.send(format);
  const encodings = Buffer.alloc(4 + 4 * NOVNC_ENCODINGS.length);
  encodings.writeUInt8(2, 0);
  encodings.writeUInt16BE(NOVNC_ENCODINGS.length, 2);
  NOVNC_ENCODINGS.forEach((e, i) => encodings.writeInt32BE(e, 4 + 4 * i));
  ws.send(encodings);
  const request = (incremental) => {
    const message = Buffer.alloc(10);
    message.writeUInt8(3, 0);
    message.writeUInt8(incremental ? 1 : 0, 1);
    message.writeUInt16BE(width, 6);
    message.writeUInt16BE(height, 8);
    if (ws.readyState === WebSocket.OPEN) ws.send(message);
  };
  request(false);
  // From here every byte is read and dropped.
  ws.removeAllListeners('message');
  ws.on('message', () => undefined);
  const timer = setInterval(() => request(true), 40);
  return {
    close: async () => {
      clearInterval(timer);
      ws.close();
      await Promise.race([closed, sleep(5000)]);
    },
  };
}

/**
 * As a user does before typing: the pointer over the desktop (away from the xterm, in the host's
 * plain colour), then the keyboard to the canvas.
 */
async function pointAndFocus(page) {
  const canvas = page.locator('[data-testid="desktop-target"] canvas');
  const box = await canvas.boundingBox();
  if (box) await page.mouse.move(box.x + box.width - 20, box.y + box.height - 20);
  await canvas.focus();
}

/** The whole host screen changing 10 times a second (its root window's colour), as in ADR 0010's figures. */
const churn = (host) => async (stopped) => {
  for (let i = 0; !stopped(); i += 1) {
    await new Promise((resolve) =>
      execFile('xsetroot', ['-solid', i % 2 ? '#ff8800' : '#0088ff'], { env: host.env }, resolve),
    );
    await sleep(100);
  }
  execFileSync('xsetroot', ['-solid', HOST.colour], { env: host.env });
};

/**
 * What one desktop costs the gateway: its programs, plus what the server process grew by over the
 * same server before any desktop (its own base, PGlite included, is not a desktop's).
 */
function perSession(m, baseline, n) {
  return {
    rss: (m.desktop.rss + Math.max(0, m.server.rss - baseline.server.rss)) / n,
    cpu: (m.desktop.cpu + Math.max(0, m.server.cpu - baseline.server.cpu)) / n,
  };
}

function latencyLine({ samples, missed }) {
  if (samples.length === 0) {
    process.exitCode = 1;
    return `FAILED: no key seen on screen (${missed} missed)`;
  }
  return `n=${samples.length} p50 ${pct(samples, 50).toFixed(1)} ms p95 ${pct(samples, 95).toFixed(1)} ms p99 ${pct(samples, 99).toFixed(1)} ms${missed ? ` (${missed} keys not seen within 5 s)` : ''}`;
}

/**
 * Input to screen in the page: from the keydown the page hears (window, capture phase, before noVNC)
 * to the first animation frame whose canvas pixels over the host's xterm differ (a hash of
 * getImageData each frame). Resolution: one frame (about 16.7 ms).
 */
async function latencyInBrowser(page, keys, keyTimeoutMs = 5000) {
  await page.evaluate((term) => {
    const canvas = document.querySelector('[data-testid="desktop-target"] canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });
    const probe = { t0: null, samples: [], last: 0, on: true };
    window.__benchProbe = probe;
    const hash = () => {
      const px = new Uint32Array(context.getImageData(term.x, term.y, term.width, term.height).data.buffer);
      let h = 2166136261;
      for (let i = 0; i < px.length; i += 1) h = Math.imul(h ^ px[i], 16777619);
      return h;
    };
    probe.last = hash();
    window.addEventListener(
      'keydown',
      (event) => {
        if (event.key === 'k') probe.t0 = performance.now();
      },
      true,
    );
    const frame = () => {
      if (!probe.on) return;
      const h = hash();
      if (h !== probe.last && probe.t0 !== null) {
        probe.samples.push(performance.now() - probe.t0);
        probe.t0 = null;
      }
      probe.last = h;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, TERM);
  await pointAndFocus(page);
  let missed = 0;
  for (let i = 1; i <= keys; i += 1) {
    if (i % 30 === 0) {
      await page.keyboard.press('Enter');
      await sleep(500);
    }
    const before = await page.evaluate(() => window.__benchProbe.samples.length);
    await page.keyboard.press('k');
    const seen = await page
      .waitForFunction((count) => window.__benchProbe.samples.length > count, before, {
        timeout: keyTimeoutMs,
        polling: 20,
      })
      .then(() => true)
      .catch(() => false);
    if (!seen) {
      missed += 1;
      if (missed >= 5 && missed === i) break;
      await page.evaluate(() => (window.__benchProbe.t0 = null));
    }
    await sleep(150 + Math.random() * 100);
  }
  const samples = await page.evaluate(() => {
    window.__benchProbe.on = false;
    return window.__benchProbe.samples;
  });
  if (samples.length === 0) {
    // What the page shows instead (the desktop ended? the canvas gone?).
    const shown = await page.evaluate(() => ({
      canvas: Boolean(document.querySelector('[data-testid="desktop-target"] canvas')),
      text: document.body.innerText.replace(/\s+/g, ' ').slice(0, 300),
      focus: document.activeElement?.outerHTML.slice(0, 120) ?? 'nothing',
      url: window.location.href,
    }));
    const picture = path.join(os.tmpdir(), `bench-desktop-no-echo-${Date.now()}.png`);
    await page.screenshot({ path: picture }).catch(() => undefined);
    console.log(
      `  the page during the failed latency run (${picture}): ${shown.url}, canvas ${shown.canvas ? 'present' : 'gone'}, focus on ${shown.focus}; text: ${shown.text}`,
    );
  }
  await page.keyboard.press('Enter');
  return { samples, missed };
}

/**
 * The peer: n native xfreerdp clients of the desktop's size in one Xvfb (the users' screens), connected
 * straight to the host. Memory and CPU of the clients (and, apart, of their Xvfb) over the same idle and
 * typing windows; input to screen: `xdotool` (one process reading commands from its stdin) presses a
 * key into the top client, and ffmpeg grabs the client's picture of the xterm at 100 frames a second
 * (x11grab, raw grey frames on a pipe): from just before the command is written to the first frame
 * that differs. Resolution: one grab (10 ms).
 */
async function nativePeer(host, size, n, keys, seconds, ours) {
  const x = await startXvfb(size.width, size.height);
  const children = [x.child];
  const stopAll = () => {
    for (const child of children.reverse()) killGroup(child);
  };
  peerStops.add(stopAll);
  try {
    for (let i = 0; i < n; i += 1) {
      const client = spawnGroup(
        'xfreerdp',
        [
          `/v:127.0.0.1:${host.port}`,
          '/u:bench',
          '/p:bench',
          '/cert:ignore',
          `/size:${size.width}x${size.height}`,
          '-decorations',
        ],
        { env: x.env },
      );
      children.push(client);
      ours.add(client.pid);
    }
    // Every client's window mapped.
    for (const started = Date.now(); ; await sleep(250)) {
      let windows = 0;
      try {
        windows = execFileSync('xdotool', ['search', '--onlyvisible', '--class', 'xfreerdp'], { env: x.env })
          .toString()
          .trim()
          .split('\n')
          .filter(Boolean).length;
      } catch {
        // none yet
      }
      if (windows >= n) break;
      if (Date.now() - started > 60_000) throw new Error(`native xfreerdp: ${windows} of ${n} windows after 60 s`);
    }
    await sleep(3000);
    const clients = children.slice(1);
    const groups = {
      xfreerdp: () => clients.map((c) => c.pid),
      xvfb: () => [x.child.pid],
    };
    const xdotool = spawnGroup('xdotool', ['-'], { env: x.env, stdio: ['pipe', 'ignore', 'ignore'] });
    children.push(xdotool);
    // The pointer over the top window: without a window manager, the keyboard follows it.
    xdotool.stdin.write(`mousemove ${size.width - 20} ${size.height - 20}\n`);
    const windows = {
      idle: await measure(groups, seconds),
      typing: await measure(groups, seconds, async (stopped) => {
        for (let i = 1; !stopped(); i += 1) {
          xdotool.stdin.write(i % 30 === 0 ? 'key Return\n' : 'key k\n');
          await sleep(100);
        }
      }),
    };
    let latency;
    if (keys > 0) latency = await nativeLatency(x, xdotool, keys, children);
    windows.changing = await measure(groups, seconds, churn(host));
    return { windows, latency };
  } finally {
    stopAll();
    peerStops.delete(stopAll);
  }
}

async function nativeLatency(x, xdotool, keys, children) {
  const frameBytes = TERM.width * TERM.height;
  const grab = spawnGroup(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostats'],
      ...['-f', 'x11grab', '-draw_mouse', '0', '-framerate', '100', '-video_size', `${TERM.width}x${TERM.height}`],
      ...['-i', `${x.env.DISPLAY}+${TERM.x},${TERM.y}`],
      ...['-fps_mode', 'passthrough', '-pix_fmt', 'gray', '-f', 'rawvideo', '-flush_packets', '1', 'pipe:1'],
    ],
    { env: x.env, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  children.push(grab);
  let pending = Buffer.alloc(0);
  let last;
  let t0 = null;
  const samples = [];
  let seen = () => undefined;
  grab.stdout.on('data', (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= frameBytes) {
      const frame = pending.subarray(0, frameBytes);
      pending = pending.subarray(frameBytes);
      if (last && t0 !== null && !frame.equals(last)) {
        samples.push(performance.now() - t0);
        t0 = null;
        seen();
      }
      last = Buffer.from(frame);
    }
  });
  await sleep(1500);
  let missed = 0;
  for (let i = 1; i <= keys; i += 1) {
    if (i % 30 === 0) {
      xdotool.stdin.write('key Return\n');
      await sleep(500);
    }
    const shown = new Promise((resolve) => {
      seen = () => resolve(true);
      setTimeout(() => resolve(false), 5000);
    });
    t0 = performance.now();
    xdotool.stdin.write('key k\n');
    if (!(await shown)) {
      missed += 1;
      if (missed >= 5 && missed === i) break;
      t0 = null;
    }
    await sleep(150 + Math.random() * 100);
  }
  xdotool.stdin.write('key Return\n');
  killGroup(grab);
  return { samples, missed };
}

// --- The server's own process: `node scripts/bench-desktop.mjs --serve <dataDir>` ------------------
if (args[0] === '--serve') {
  const { server } = await startBenchServer(args[1], { webDir: path.resolve('apps/web/dist') });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  const stop = () => {
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // Keep running until told to stop.
  setInterval(() => undefined, 1 << 30);
} else {
  await main().catch((error) => {
    console.log(`browser desktops: ${error.message}`);
    process.exitCode = 1;
  });
}
