// Used by film-rdp-check.sh only (not shipped): run as gatehouse-agent.service's ExecStart (the
// same unit, drop-ins and node, another script), it does what the agent does to film an xrdp
// session, against another user's X server, and prints what worked as one line of JSON to its
// stdout (the journal), after the word FILM-RDP-PROBE and NAME:
//
//   node film-rdp-probe.mjs NAME X_SERVER_PID DISPLAY XAUTHORITY STATE_DIR
//
// - /proc/<pid>/fd and cwd of the other user's X server (the agent's /proc walk: xrdp-session.ts)
// - /proc/net/tcp and tcp6 (how the agent finds xrdp's end of a stream) and /etc/passwd
// - `ss -xan` (the agent's call) and `ss -xan -p`: the X socket's connections with their peers
// - the other user's 0600 X authority file (ffmpeg reads it; the agent only names it)
// - ffmpeg x11grab of that display over /tmp/.X11-unix, with that file as XAUTHORITY: one frame
// - a file written and removed in the state folder (the agent's identity.json and config.json live there)
// It never prints the X authority file's bytes, only how many there were.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

if (process.argv[2] === '--xrdp') await xrdp(process.argv.slice(3));

/**
 * `--xrdp NAME CLIENT_PORT XRDP_PORT`: the agent's own lookup (xrdp-session.js, copied beside this
 * file) follows the connection 127.0.0.1:CLIENT_PORT → xrdp at XRDP_PORT to its session's display
 * and X authority, then ffmpeg x11grab films one pixel of it there, as capture would.
 */
async function xrdp([name, clientPort, xrdpPort]) {
  const { lookupSession, procReader } = await import('./xrdp-session.js');
  const ports = { localPort: Number(clientPort), remotePort: Number(xrdpPort) };
  const started = Date.now();
  let found;
  while (Date.now() - started < 60_000) {
    found = await lookupSession(procReader(), ports).catch((e) => ({ kind: 'error', why: String(e.message) }));
    if (found.kind === 'session' || found.kind === 'gone' || found.kind === 'not-xrdp' || found.kind === 'error') break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const out = { uid: process.getuid(), lookup: found?.kind, why: found?.why };
  if (found?.kind === 'session') {
    const { display, user, xauthority } = found.session;
    Object.assign(out, { display, user, xauthority });
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', DISPLAY: display };
    if (xauthority) env.XAUTHORITY = xauthority;
    // One pixel from the middle-left of the screen, as r,g,b; again while the session has not
    // painted it yet (its X server accepts clients before startwm.sh has run).
    for (let attempt = 1; attempt <= 20; attempt++) {
      const grab = spawnSync(
        'ffmpeg',
        ['-hide_banner', '-loglevel', 'error', '-f', 'x11grab', '-i', display, '-frames:v', '1'].concat([
          '-vf',
          'crop=8:8:40:200,scale=1:1',
          '-f',
          'rawvideo',
          '-pix_fmt',
          'rgb24',
          'pipe:1',
        ]),
        { env, timeout: 20_000 },
      );
      out.ffmpeg =
        grab.status === 0
          ? { ok: true, rgb: [...grab.stdout.subarray(0, 3)], attempt }
          : { ok: false, error: String(grab.stderr).trim().split('\n').at(-1), attempt };
      if (out.ffmpeg.ok && out.ffmpeg.rgb.some((v) => v > 0)) break;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  console.log(`FILM-RDP-PROBE ${name} ${JSON.stringify(out)}`);
  process.exit(0);
}

const [name, pidText, display, xauthority, stateDir] = process.argv.slice(2);
if (!name || !pidText || !display || !xauthority || !stateDir) {
  console.error('usage: node film-rdp-probe.mjs NAME X_SERVER_PID DISPLAY XAUTHORITY STATE_DIR');
  process.exit(2);
}
const pid = Number(pidText);
const socket = `/tmp/.X11-unix/X${display.replace(/^:/, '')}`;

/** Runs one check: { ok: true, ...what it found } or { ok: false, error }. */
function check(run) {
  try {
    return { ok: true, ...run() };
  } catch (error) {
    return { ok: false, error: `${error.code ?? ''} ${String(error.message).split('\n')[0]}`.trim() };
  }
}

const status = fs.readFileSync('/proc/self/status', 'utf8');
const field = (name) => new RegExp(`^${name}:\\s+(.*)$`, 'm').exec(status)?.[1]?.trim();

const out = {
  uid: process.getuid(),
  capEff: field('CapEff'),
  capBnd: field('CapBnd'),
  noNewPrivs: field('NoNewPrivs'),
  target: { pid, owner: Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) },
  procFd: check(() => {
    const names = fs.readdirSync(`/proc/${pid}/fd`);
    const links = names.map((n) => fs.readlinkSync(`/proc/${pid}/fd/${n}`));
    return { fds: names.length, sockets: links.filter((l) => l.startsWith('socket:[')).length };
  }),
  procCwd: check(() => ({ cwd: fs.readlinkSync(`/proc/${pid}/cwd`) })),
  procNet: check(() => {
    const lines = ['tcp', 'tcp6'].map((f) => fs.readFileSync(`/proc/net/${f}`, 'utf8').split('\n').length);
    const passwd = fs.readFileSync('/etc/passwd', 'utf8').split('\n').length;
    return { tcpLines: lines[0], tcp6Lines: lines[1], passwdLines: passwd };
  }),
  ss: check(() => {
    const text = execFileSync('ss', ['-xan'], { encoding: 'utf8' });
    // u_str ESTAB 0 0 /tmp/.X11-unix/X37 1234 * 1235: the server's end of a connection, and its peer.
    const ends = text
      .split('\n')
      .filter((l) => l.includes(socket) && /\bESTAB\b/.test(l))
      .map((l) => l.trim().split(/\s+/));
    const peers = ends.map((w) => Number(w.at(-1))).filter((n) => n > 0);
    return { established: ends.length, withPeer: peers.length };
  }),
  ssProcesses: check(() => {
    const text = execFileSync('ss', ['-xanp'], { encoding: 'utf8' });
    const lines = text.split('\n').filter((l) => l.includes(socket));
    return {
      lines: lines.length,
      serverNamed: lines.some((l) => l.includes(`pid=${pid},`)),
      withPeer: lines.filter((l) => /\bESTAB\b/.test(l) && Number(l.trim().split(/\s+/).at(-2)) > 0).length,
    };
  }),
  xauthority: check(() => ({ bytes: fs.readFileSync(xauthority).length })),
  ffmpeg: check(() => {
    const grab = spawnSync(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'x11grab',
        '-i',
        display,
        '-frames:v',
        '1',
        '-f',
        'rawvideo',
        'pipe:1',
      ],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', DISPLAY: display, XAUTHORITY: xauthority }, timeout: 20_000 },
    );
    if (grab.status !== 0) {
      const last = String(grab.stderr).trim().split('\n').at(-1) ?? '';
      throw new Error(`ffmpeg exit ${grab.status}: ${last.replace(/[0-9a-f]{16,}/gi, '…')}`);
    }
    return { bytes: grab.stdout.length };
  }),
  stateWrite: check(() => {
    const file = `${stateDir}/.film-rdp-probe`;
    fs.writeFileSync(file, 'probe\n');
    fs.rmSync(file);
    return {};
  }),
};
console.log(`FILM-RDP-PROBE ${name} ${JSON.stringify(out)}`);
