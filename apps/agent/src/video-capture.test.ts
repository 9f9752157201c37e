import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { CaptureStatus } from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Log } from './log.js';
import { type CaptureInput, DisplayClaims, RdpCapture, ffmpegArgs, sanitiseLine } from './video-capture.js';
import type { ProcReader } from './xrdp-session.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A Log that keeps its lines (and still prints nothing). */
class KeptLog extends Log {
  readonly lines: string[] = [];
  override warn(m: string): void {
    this.lines.push(`WARNING ${m}`);
  }
  override error(m: string): void {
    this.lines.push(`ERROR ${m}`);
  }
  override info(m: string): void {
    this.lines.push(`INFO ${m}`);
  }
}

const RECORD = { t: 'record', stream: 1, fps: 5, scale: 1, bitrate: '1000k' } as const;

/** Starts a capture whose reports land in a list; answers both. */
function capture(over: Partial<CaptureInput> & { server?: string } = {}) {
  const statuses: CaptureStatus[] = [];
  const log = new KeptLog();
  const c = RdpCapture.start({
    record: { ...RECORD, recording_id: randomUUID() },
    identity: { id: randomUUID(), credential: 'c', server: over.server ?? 'http://127.0.0.1:9' },
    options: { source: undefined, ffmpeg: 'ffmpeg', pollMs: 100, waitMs: 600 },
    log,
    send: (s) => statuses.push(s),
    claims: new DisplayClaims(),
    uid: 0,
    ...over,
  });
  return { c, statuses, log, states: () => statuses.map((s) => s.state) };
}

async function until<T>(check: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = check();
    if (v !== undefined) return v;
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await sleep(50);
  }
}

describe('ffmpeg’s settings and its messages', () => {
  it('closes a fragment at every key frame, one a second, so the first reaches the server within ~2 s', () => {
    const args = ffmpegArgs('linux', ':5', { fps: 5, scale: 1, bitrate: '1000k' })!;
    expect(args.join(' ')).toContain('-g 5 -keyint_min 5');
    expect(args.join(' ')).toContain('frag_keyframe+empty_moov');
    expect(args).toContain('x11grab');
  });

  it('reports the last stderr line, printable, short, with long hex runs masked', () => {
    expect(sanitiseLine('a\n[x11grab @ 0x5] Cannot open display :7, error 1.\n\n')).toBe(
      '[x11grab @ 0x5] Cannot open display :7, error 1.',
    );
    expect(sanitiseLine('cookie 0123456789abcdef0123456789abcdef\u0007')).toBe('cookie [hex]?');
    expect(sanitiseLine('x'.repeat(1000))).toHaveLength(300);
  });
});

describe('where the agent cannot film, it says so', () => {
  it('a Windows service (session 0) without a capture source: unsupported, no ffmpeg', async () => {
    const { c, statuses } = capture({
      platform: 'win32',
      env: {},
      options: { source: undefined, ffmpeg: '/nonexistent' },
    });
    await c.finished;
    await c.stop();
    expect(statuses).toHaveLength(1);
    expect(statuses[0]).toMatchObject({ state: 'unsupported' });
    expect(statuses[0]?.detail).toMatch(/Windows service \(session 0\)/);
  });

  it('an agent that is not root cannot follow xrdp sessions: unsupported, saying why', async () => {
    const { c, statuses, log } = capture({ platform: 'linux', uid: 1000, local: { localPort: 1, remotePort: 2 } });
    await c.finished;
    expect(statuses[0]).toMatchObject({ state: 'unsupported' });
    expect(statuses[0]?.detail).toMatch(/needs the agent to run as root.*uid 1000/);
    // The way out for a host installed with the one-line install, named where the console shows it.
    expect(statuses[0]?.detail).toContain('install.sh: run it again with --film-rdp');
    expect(statuses[0]!.detail!.length).toBeLessThanOrEqual(500);
    expect(log.lines.some((l) => l.startsWith('ERROR') && l.includes('not filmed'))).toBe(true);
  });

  it('an RDP server that is not xrdp (here: this very process): unsupported, naming it and --capture-source', async () => {
    const service = net.createServer(() => undefined);
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    const port = (service.address() as net.AddressInfo).port;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const { c, statuses } = capture({
      platform: 'linux',
      local: { localPort: socket.localPort!, remotePort: port },
    });
    await c.finished;
    socket.destroy();
    service.close();
    expect(statuses[0]).toMatchObject({ state: 'unsupported' });
    expect(statuses[0]?.detail).toMatch(new RegExp(`127.0.0.1:${port} is served by .*not xrdp.*--capture-source :0`));
  });

  it('no session display within the wait: waiting, then failed with the reason, logged as an error', async () => {
    const pendingReader = {
      tcp: () => Promise.resolve('  1: 0100007F:0002 0100007F:0001 01 0:0 0:0 0 0 0 77 1\n'),
      unix: () => Promise.resolve(''),
      pids: () => Promise.resolve([5]),
      fds: () => Promise.resolve(['socket:[77]']),
      cmdline: () => Promise.resolve(['/usr/sbin/xrdp']),
      cwd: () => Promise.resolve('/'),
      uid: () => Promise.resolve(0),
      passwd: () => Promise.resolve(''),
      exists: () => Promise.resolve(false),
    } satisfies ProcReader;
    const { c, statuses, log, states } = capture({
      platform: 'linux',
      reader: pendingReader,
      local: { localPort: 1, remotePort: 2 },
    });
    await c.finished;
    await c.stop();
    expect(states()).toEqual(['waiting', 'failed']);
    expect(statuses[1]?.detail).toMatch(/no xrdp session display appeared within 1 s .*not connected this login/);
    expect(log.lines.some((l) => l.startsWith('ERROR') && l.includes('no xrdp session display'))).toBe(true);
  });

  it('ffmpeg missing: failed, saying to install it', async () => {
    const { c, statuses } = capture({ platform: 'linux', options: { source: ':1', ffmpeg: '/nonexistent/ffmpeg' } });
    await c.finished;
    await c.stop();
    expect(statuses.at(-1)).toMatchObject({ state: 'failed' });
    expect(statuses.at(-1)?.detail).toMatch(/ffmpeg was not found \(\/nonexistent\/ffmpeg\)/);
  });

  it('ffmpeg failing before any video is retried with backoff, then failed with its last line', async () => {
    const display = `:${40000 + Math.floor(Math.random() * 20000)}`;
    const { c, statuses, log } = capture({ platform: 'linux', options: { source: display, ffmpeg: 'ffmpeg' } });
    await c.finished;
    await c.stop();
    expect(statuses.map((s) => s.state)).toEqual(['failed']);
    expect(statuses[0]?.detail).toMatch(new RegExp(`could not film ${display} after 4 attempts: .*${display}`));
    expect(log.lines.filter((l) => l.startsWith('WARNING') && l.includes('retrying'))).toHaveLength(3);
  }, 30_000);
});

describe('DisplayClaims', () => {
  it('gives a display to the newest capture and answers the one it took over from', () => {
    const claims = new DisplayClaims();
    const a = {} as RdpCapture;
    const b = {} as RdpCapture;
    expect(claims.claim(':10', a)).toBeUndefined();
    expect(claims.claim(':10', a)).toBeUndefined();
    expect(claims.claim(':10', b)).toBe(a);
    claims.release(':10', a);
    expect(claims.claim(':10', b)).toBeUndefined();
    claims.release(':10', b);
    expect(claims.filming().size).toBe(0);
  });
});

const haveX = ['Xvfb', 'ffmpeg', 'ffprobe', 'xsetroot'].every(
  (p) => spawnSync('sh', ['-c', `command -v ${p}`]).status === 0,
);
const skipX = !haveX && !process.env.CI;

describe.skipIf(skipX)('a plain X desktop given with --capture-source (Xvfb, real ffmpeg)', () => {
  let xvfb: ChildProcess;
  let display = '';
  const stored = new Map<string, Buffer>();
  const server = http.createServer((req, res) => {
    const id = /\/api\/recording\/([^/]+)\/video/.exec(req.url ?? '')?.[1] ?? '';
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      stored.set(id, Buffer.concat([stored.get(id) ?? Buffer.alloc(0), ...chunks]));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  let url = '';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-capture-'));

  beforeAll(async () => {
    if (!haveX) throw new Error('Xvfb, ffmpeg, ffprobe and xsetroot are needed (CI installs them)');
    let n = 0;
    do n = 2000 + Math.floor(Math.random() * 2000);
    while (fs.existsSync(`/tmp/.X11-unix/X${n}`) || fs.existsSync(`/tmp/.X${n}-lock`));
    display = `:${n}`;
    xvfb = spawn('Xvfb', [display, '-screen', '0', '640x480x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    await until(() => (fs.existsSync(`/tmp/.X11-unix/X${n}`) ? true : undefined), 10_000);
    execFileSync('xsetroot', ['-display', display, '-solid', '#00ff00']);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });

  afterAll(() => {
    xvfb?.kill('SIGTERM');
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('films it, and what reached the server while filming plays without an ending (a kill -9 keeps it)', async () => {
    const { c, states } = capture({ platform: 'linux', server: url, options: { source: display, ffmpeg: 'ffmpeg' } });
    await until(() => (states().includes('filming') ? true : undefined));
    const filmingAt = Date.now();
    const id = c.recordingId;
    await until(() => ((stored.get(id)?.length ?? 0) > 1000 ? true : undefined), 5000);
    // The first fragment is on the server within about two seconds of ffmpeg starting.
    expect(Date.now() - filmingAt).toBeLessThan(3000);
    await sleep(2500);
    // The bytes as the server holds them now, before any ending was written: the cut a kill -9 leaves.
    const cut = path.join(dir, 'cut.mp4');
    fs.writeFileSync(cut, stored.get(id)!);
    const frames = execFileSync('ffprobe', [
      ...['-v', 'error', '-count_frames', '-select_streams', 'v:0'],
      ...['-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', cut],
    ])
      .toString()
      .trim();
    expect(Number(frames)).toBeGreaterThanOrEqual(5);
    await c.stop();
    expect(states()).toEqual(['filming', 'stopped']);
  }, 30_000);
});
