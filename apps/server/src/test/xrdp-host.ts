import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/*
 * A Linux host running xrdp as an administrator sets it up (xrdp + xrdp-sesman, Xorg sessions
 * with xorgxrdp), for tests; the same setup as apps/agent/src/xrdp-capture.security.test.ts.
 *
 * xrdp 0.9 reads the sesman port from the compiled-in /etc/xrdp/sesman.ini, whatever xrdp.ini says,
 * so xrdp and sesman run in a private mount namespace (unshare -m) where that file is ours; nothing
 * on the machine changes. Each local user's session paints its own colour (~/startwm.sh) and stays.
 * Needs root (users, namespaces).
 */

/** The programs an xrdp host test runs (Debian: xrdp xorgxrdp freerdp2-x11 xvfb xauth x11-xserver-utils ffmpeg iproute2 util-linux passwd). */
export const XRDP_HOST_PROGRAMS = [
  'xrdp',
  'xrdp-sesman',
  'xfreerdp',
  'Xvfb',
  'xauth',
  'ffmpeg',
  'ffprobe',
  'ss',
  'unshare',
  'xsetroot',
  'useradd',
  'userdel',
  'chpasswd',
];

/** A local user of the host, whose xrdp session paints `colour`. */
export interface XrdpUser {
  name: string;
  password: string;
  colour: string;
  uid: number;
}

export interface XrdpHost {
  /** xrdp's TCP port on 127.0.0.1. */
  port: number;
  users: XrdpUser[];
  /** The working folder (configs, logs). */
  dir: string;
  /** The X displays (':N') that have a socket now. */
  displays(): string[];
  /** The uid of the X server of a display (':N'), from /proc, or undefined. */
  xServerUid(display: string): number | undefined;
  /**
   * A user's xrdp session as a program in it sees it: DISPLAY and XAUTHORITY of the session's X
   * server (its -auth file, relative to its working folder), or undefined while it has none.
   */
  sessionOf(user: XrdpUser): { display: string; env: NodeJS.ProcessEnv } | undefined;
  /** The pids of processes running as a uid. */
  processesOf(uid: number): number[];
  /** xrdp's and sesman's logs, for failure messages. */
  logs(): string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** A display number nobody uses (no socket, no lock), at random. */
function freeDisplay(from: number, span: number): number {
  for (;;) {
    const n = from + Math.floor(Math.random() * span);
    if (!fs.existsSync(`/tmp/.X11-unix/X${n}`) && !fs.existsSync(`/tmp/.X${n}-lock`)) return n;
  }
}

function pids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

function uidOf(pid: number): number | undefined {
  try {
    return Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

/** Starts xrdp and sesman on free ports with one local user per colour. */
export async function startXrdpHost(colours: string[]): Promise<XrdpHost> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-xrdp-host-'));
  const users: XrdpUser[] = [];
  const children: ChildProcess[] = [];
  let sesmanPid: number | undefined;
  const read = (name: string) => {
    try {
      return fs.readFileSync(path.join(dir, name), 'utf8').slice(-3000);
    } catch {
      return '';
    }
  };
  const host: XrdpHost = {
    port: 0,
    users,
    dir,
    displays: () =>
      fs
        .readdirSync('/tmp/.X11-unix')
        .filter((n) => /^X\d+$/.test(n))
        .map((n) => `:${n.slice(1)}`),
    xServerUid(display) {
      for (const pid of pids()) {
        try {
          const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
          if (/Xorg|Xvnc/.test(argv[0] ?? '') && argv.includes(display)) return uidOf(pid);
        } catch {
          // gone already
        }
      }
      return undefined;
    },
    sessionOf(user) {
      for (const pid of pids()) {
        if (uidOf(pid) !== user.uid) continue;
        try {
          const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
          if (!/Xorg|Xvnc/.test(argv[0] ?? '')) continue;
          const display = argv.find((a) => /^:\d+$/.test(a));
          const auth = argv[argv.indexOf('-auth') + 1];
          if (!display || !argv.includes('-auth') || !auth) continue;
          const xauthority = path.resolve(fs.readlinkSync(`/proc/${pid}/cwd`), auth);
          const env = { PATH: process.env.PATH, HOME: `/home/${user.name}`, DISPLAY: display, XAUTHORITY: xauthority };
          return { display, env };
        } catch {
          // gone already
        }
      }
      return undefined;
    },
    processesOf: (uid) => pids().filter((pid) => uidOf(pid) === uid),
    logs: () => ['xrdp.log', 'xrdp.out', 'sesman.log', 'sesman.out'].map((n) => `--- ${n}\n${read(n)}`).join('\n'),
    async stop() {
      for (const c of children.reverse()) c.kill('SIGTERM');
      if (sesmanPid) spawnSync('kill', [String(sesmanPid)]);
      // The test users' session processes (Xorg, chansrv, startwm), started by our sesman: by their uid.
      const uids = users.map((u) => u.uid).filter((n) => n > 0);
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        for (const pid of pids()) {
          if (uids.includes(uidOf(pid) ?? -1)) {
            try {
              process.kill(pid, signal);
            } catch {
              // gone already
            }
          }
        }
        await sleep(1000);
      }
      for (const u of users) spawnSync('userdel', ['-r', u.name], { stdio: 'ignore' });
      if (process.env.KEEP_XRDP_TEST_DIR) console.log(`kept ${dir}`);
      else fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    const suffix = Math.random().toString(36).slice(2, 7);
    for (const colour of colours) {
      const name = `ghh${suffix}${users.length}`;
      const password = `Pw-${randomUUID()}`;
      execFileSync('useradd', ['-m', '-s', '/bin/sh', name]);
      const uid = Number(execFileSync('id', ['-u', name]).toString().trim());
      users.push({ name, password, colour, uid });
      execFileSync('chpasswd', { input: `${name}:${password}\n` });
      // sesman runs ~/startwm.sh (UserWindowManager): the session paints its colour and stays.
      const script = path.join('/home', name, 'startwm.sh');
      fs.writeFileSync(script, `#!/bin/sh\nxsetroot -solid '${colour}'\nexec sleep 100000\n`, { mode: 0o755 });
      execFileSync('chown', [`${name}:${name}`, script]);
    }

    host.port = await freePort();
    const sesmanPort = await freePort();
    const offset = freeDisplay(300, 300);
    const sesman = fs
      .readFileSync('/etc/xrdp/sesman.ini', 'utf8')
      .replace(/^ListenPort=.*$/m, `ListenPort=${sesmanPort}`)
      .replace(/^X11DisplayOffset=.*$/m, `X11DisplayOffset=${offset}`)
      .replace(/^LogFile=.*$/gm, `LogFile=${dir}/sesman.log`)
      .replace(/^EnableSyslog=.*$/gm, 'EnableSyslog=false');
    fs.writeFileSync(path.join(dir, 'sesman.ini'), sesman);
    const xrdpIni = fs.readFileSync('/etc/xrdp/xrdp.ini', 'utf8');
    // Only the Xorg (xorgxrdp) session type, so a client's credentials log straight in.
    const firstModule = xrdpIni.indexOf('\n[Xvnc]');
    fs.writeFileSync(
      path.join(dir, 'xrdp.ini'),
      (firstModule > 0 ? xrdpIni.slice(0, firstModule) : xrdpIni)
        .replace(/^port=.*$/m, `port=tcp://127.0.0.1:${host.port}`)
        .replace(/^LogFile=.*$/gm, `LogFile=${dir}/xrdp.log`)
        .replace(/^EnableSyslog=.*$/gm, 'EnableSyslog=false'),
    );
    fs.writeFileSync(
      path.join(dir, 'run.sh'),
      [
        '#!/bin/sh',
        `mount --bind ${dir}/sesman.ini /etc/xrdp/sesman.ini || exit 1`,
        `xrdp-sesman -n -c ${dir}/sesman.ini > ${dir}/sesman.out 2>&1 &`,
        `echo $! > ${dir}/sesman.pid`,
        `exec xrdp -n -c ${dir}/xrdp.ini > ${dir}/xrdp.out 2>&1`,
      ].join('\n'),
      { mode: 0o755 },
    );
    children.push(spawn('unshare', ['-m', '--propagation', 'private', path.join(dir, 'run.sh')], { stdio: 'ignore' }));
    const started = Date.now();
    while (spawnSync('ss', ['-Hltn', `sport = :${host.port}`]).stdout.length === 0) {
      if (Date.now() - started > 15_000) throw new Error(`xrdp did not start:\n${host.logs()}`);
      await sleep(200);
    }
    sesmanPid = Number(fs.readFileSync(path.join(dir, 'sesman.pid'), 'utf8'));
    return host;
  } catch (error) {
    await host.stop();
    throw error;
  }
}
