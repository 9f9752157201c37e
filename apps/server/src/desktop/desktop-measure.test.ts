import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { it } from 'vitest';
import { DesktopSession } from './desktop-session.js';
import { startRdpHost } from '../test/desktop-rig.js';

function sample(pids: number[]) {
  const out: Record<number, { comm: string; rssKb: number; ticks: number }> = {};
  for (const pid of pids) {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const comm = /\((.*)\)/.exec(stat)![1]!;
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]);
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
    out[pid] = { comm, rssKb, ticks };
  }
  return out;
}
async function measure(label: string, pids: number[], seconds: number) {
  const a = sample(pids);
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const b = sample(pids);
  const dt = (Date.now() - t0) / 1000;
  let rss = 0,
    cpu = 0;
  const rows = [];
  for (const pid of pids) {
    const c = ((b[pid]!.ticks - a[pid]!.ticks) / 100 / dt) * 100;
    rss += b[pid]!.rssKb;
    cpu += c;
    rows.push(`${b[pid]!.comm}: RSS ${(b[pid]!.rssKb / 1024).toFixed(1)} MiB, CPU ${c.toFixed(1)} %`);
  }
  const line = `${label} (${dt.toFixed(1)} s, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}): total RSS ${(rss / 1024).toFixed(1)} MiB, CPU ${cpu.toFixed(1)} % of one core | ${rows.join('; ')}`;
  console.log(line);
}
// Not a test: the figures of docs/adr/0010-gateway-rdp-client.md (RSS and CPU of one desktop's
// programs, from /proc). Run: GATEHOUSE_MEASURE_DESKTOP=1 npx vitest run apps/server/src/desktop/desktop-measure.test.ts
it.skipIf(!process.env.GATEHOUSE_MEASURE_DESKTOP)(
  'measures one desktop',
  async () => {
    const host = await startRdpHost({ width: 1280, height: 800, colour: '#336699' });
    let bytes = 0;
    const d = await DesktopSession.start({
      width: 1280,
      height: 800,
      credentials: { username: 'bob', password: 'pw' },
      connect: async () => net.connect(host.port, '127.0.0.1'),
      video: { fps: 5, scale: 1, bitrate: '2000k', sink: (c) => (bytes += c.length) },
      log: { info: () => undefined, warn: console.log, debug: () => undefined },
    });
    const ctl = d.openControl();
    ctl.on('data', () => undefined);
    ctl.on('error', () => undefined);
    const pause = () => new Promise((r) => setTimeout(r, 400));
    await pause();
    ctl.write('RFB 003.008\n');
    await pause();
    ctl.write(Buffer.from([1]));
    await pause();
    ctl.write(Buffer.from([1]));
    await pause();
    // A viewer as noVNC is: raw encoding (the worst case), an incremental update asked every 50 ms.
    ctl.write(Buffer.from([2, 0, 0, 1, 0, 0, 0, 0]));
    const ask = setInterval(() => ctl.write(Buffer.from([3, 1, 0, 0, 0, 0, 5, 0, 3, 32])), 50);
    await new Promise((r) => setTimeout(r, 3000));
    await measure('1280x800, 1 session, idle screen, 5 fps 2000k, a viewer asking updates (raw)', d.pids(), 20);
    // A changing screen: the host's root colour changes 10 times a second, plus an xclock-like churn.
    const env = { ...process.env, DISPLAY: `:${host.display}` };
    let i = 0;
    const churn = setInterval(() => {
      i += 1;
      try {
        execFileSync('xsetroot', ['-solid', i % 2 ? '#ff8800' : '#0088ff'], { env });
      } catch {
        /* */
      }
    }, 100);
    await new Promise((r) => setTimeout(r, 2000));
    await measure(
      '1280x800, 1 session, full screen changing 10x/s, 5 fps 2000k, a viewer asking updates (raw)',
      d.pids(),
      20,
    );
    clearInterval(churn);
    clearInterval(ask);
    console.log(`video bytes in about 45 s: ${bytes}`);
    await d.stop();
    host.stop();
  },
  120_000,
);
