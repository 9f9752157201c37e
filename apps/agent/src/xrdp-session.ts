import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Which xrdp session a tunnel stream became, read from /proc (Linux, xrdp 0.9 + xorgxrdp or Xvnc).
 *
 * The agent's stream is a TCP connection 127.0.0.1:A → 127.0.0.1:P. xrdp (fork=true) hands the
 * accepted socket to one child per connection; once the user logged in, that child connects to
 * its session's X server: a unix socket /run/xrdp/sockdir/xrdp_display_N (xorgxrdp) or TCP
 * 127.0.0.1:5900+N (Xvnc). So: the TCP entry local P / remote A → its inode → the process holding
 * it (the xrdp child) → that child's unix sockets' peers (`ss -xan`, the kernel's sock_diag: a unix
 * socket's peer is not in /proc/net/unix) → the display N → the X server of :N → its owner and its
 * `-auth` file (relative to the X server's working directory), else ~owner/.Xauthority.
 *
 * Everything here is pure over a ProcReader, so tests can feed fixtures; procReader() is the real one.
 */

/** One line of /proc/net/tcp or /proc/net/tcp6. */
export interface TcpEntry {
  localPort: number;
  remotePort: number;
  /** Hex state: 01 established, 0A listen. */
  state: number;
  inode: number;
}

/** One unix socket as `ss -xan` shows it: its inode, path (if bound, or accepted on a bound one) and peer. */
export interface UnixEntry {
  inode: number;
  path: string | undefined;
  peer: number | undefined;
}

/** What the finder reads from the system; every method answers undefined/[] for what is gone. */
export interface ProcReader {
  /** Text of /proc/net/tcp followed by /proc/net/tcp6. */
  tcp(): Promise<string>;
  /** Output of `ss -xan` (unix sockets with their peers); throws when ss is missing. */
  unix(): Promise<string>;
  /** Every pid in /proc. */
  pids(): Promise<number[]>;
  /** The targets of /proc/<pid>/fd/* (such as socket:[123]). */
  fds(pid: number): Promise<string[]>;
  /** argv of a process. */
  cmdline(pid: number): Promise<string[] | undefined>;
  /** /proc/<pid>/cwd. */
  cwd(pid: number): Promise<string | undefined>;
  /** Real uid of a process (/proc/<pid>/status). */
  uid(pid: number): Promise<number | undefined>;
  /** Text of /etc/passwd. */
  passwd(): Promise<string>;
  /** Whether a file exists. */
  exists(file: string): Promise<boolean>;
}

/** A session found: the display to film and how to be let in. */
export interface XrdpSession {
  /** Such as :10. */
  display: string;
  /** The xrdp child serving this connection. */
  xrdpPid: number;
  /** The X server (Xorg with xorgxrdp, or Xvnc) of the display. */
  serverPid: number;
  user: string;
  uid: number;
  /** The X authority file to give ffmpeg (XAUTHORITY); never read here, only named. */
  xauthority: string | undefined;
}

/** Where a stream stands. */
export type Lookup =
  /** Nothing to film yet (not accepted yet, login screen, X server starting); `why` says which. */
  | { kind: 'pending'; why: string; xrdpPid?: number }
  /** The TCP connection does not exist (any more). */
  | { kind: 'gone' }
  /** Another program accepted the connection: not an xrdp host. */
  | { kind: 'not-xrdp'; pid: number; program: string }
  | { kind: 'session'; session: XrdpSession };

const hexPort = (field: string | undefined): number => Number.parseInt(field?.split(':')[1] ?? '', 16);

/** Parses /proc/net/tcp{,6} text (header lines are skipped). */
export function parseProcNetTcp(text: string): TcpEntry[] {
  const entries: TcpEntry[] = [];
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (!/^\d+:$/.test(f[0] ?? '')) continue;
    const localPort = hexPort(f[1]);
    const remotePort = hexPort(f[2]);
    const state = Number.parseInt(f[3] ?? '', 16);
    const inode = Number.parseInt(f[9] ?? '', 10);
    if ([localPort, remotePort, state, inode].some((n) => !Number.isFinite(n))) continue;
    entries.push({ localPort, remotePort, state, inode });
  }
  return entries;
}

/** Parses `ss -xan` output: `u_str ESTAB 0 0 <path|*> <inode> <peer path|*> <peer inode> …`. */
export function parseSsUnix(text: string): UnixEntry[] {
  const entries: UnixEntry[] = [];
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (!/^u_(str|seq|dgr)$/.test(f[0] ?? '') || f.length < 8) continue;
    const inode = Number.parseInt(f[5] ?? '', 10);
    const peer = Number.parseInt(f[7] ?? '', 10);
    if (!Number.isFinite(inode)) continue;
    entries.push({
      inode,
      path: f[4] === '*' ? undefined : f[4],
      peer: Number.isFinite(peer) && peer > 0 ? peer : undefined,
    });
  }
  return entries;
}

/** The socket inodes among a process's fd targets. */
export function socketInodes(fds: readonly string[]): number[] {
  const inodes: number[] = [];
  for (const target of fds) {
    const m = /^socket:\[(\d+)\]$/.exec(target);
    if (m?.[1]) inodes.push(Number(m[1]));
  }
  return inodes;
}

/** The display number of an xorgxrdp socket path such as /run/xrdp/sockdir/xrdp_display_10. */
export function displayOfSocketPath(file: string | undefined): number | undefined {
  const m = /(?:^|\/)xrdp_display_(\d+)$/.exec(file ?? '');
  return m?.[1] ? Number(m[1]) : undefined;
}

/** The X authority file from an X server's argv (`-auth FILE`, relative to its cwd). */
export function authFromCmdline(argv: readonly string[], cwd: string | undefined): string | undefined {
  const i = argv.indexOf('-auth');
  const file = i >= 0 ? argv[i + 1] : undefined;
  if (!file) return undefined;
  if (path.isAbsolute(file)) return file;
  return cwd ? path.resolve(cwd, file) : undefined;
}

/** Name and home of a uid from /etc/passwd text. */
export function passwdEntry(text: string, uid: number): { name: string; home: string } | undefined {
  for (const line of text.split('\n')) {
    const f = line.split(':');
    if (f.length >= 6 && Number(f[2]) === uid) return { name: f[0] ?? '', home: f[5] ?? '' };
  }
  return undefined;
}

/** Whether argv is an X server serving display n (`Xorg :10 …`, `Xvnc :10 …`). */
export function servesDisplay(argv: readonly string[], n: number): boolean {
  const program = path.basename(argv[0] ?? '');
  return /^X/.test(program) && argv.slice(1).includes(`:${n}`);
}

/** Programs that are xrdp: its children keep the name (comm) xrdp. */
const isXrdp = (argv: readonly string[] | undefined) => /^xrdp$/.test(path.basename(argv?.[0] ?? ''));

/** The process holding a socket inode, scanning /proc (answers the first holder). */
async function holderOf(reader: ProcReader, inodes: ReadonlySet<number>): Promise<Map<number, number>> {
  const found = new Map<number, number>();
  for (const pid of await reader.pids()) {
    for (const inode of socketInodes(await reader.fds(pid))) {
      if (inodes.has(inode) && !found.has(inode)) found.set(inode, pid);
    }
    if (found.size === inodes.size) break;
  }
  return found;
}

/** First Xvnc display port. */
const VNC_BASE = 5900;

/**
 * Looks once where the stream 127.0.0.1:localPort → 127.0.0.1:remotePort stands. `xrdpPid` from
 * an earlier lookup saves the /proc scan for the accepting process.
 */
export async function lookupSession(
  reader: ProcReader,
  ports: { localPort: number; remotePort: number },
  known?: { xrdpPid?: number },
): Promise<Lookup> {
  const tcp = parseProcNetTcp(await reader.tcp());
  // The server side of the agent's connection: local port P, remote port A.
  const entry = tcp.find((e) => e.localPort === ports.remotePort && e.remotePort === ports.localPort && e.inode > 0);
  if (!entry) {
    // The agent's own side still exists: accepted by the kernel, not taken by a process yet.
    const ours = tcp.some((e) => e.localPort === ports.localPort && e.remotePort === ports.remotePort);
    return ours ? { kind: 'pending', why: 'the RDP server has not accepted the connection yet' } : { kind: 'gone' };
  }
  let xrdpPid = known?.xrdpPid;
  if (xrdpPid === undefined || !socketInodes(await reader.fds(xrdpPid)).includes(entry.inode)) {
    xrdpPid = (await holderOf(reader, new Set([entry.inode]))).get(entry.inode);
  }
  if (xrdpPid === undefined) return { kind: 'pending', why: 'no process holds the connection yet' };
  const argv = await reader.cmdline(xrdpPid);
  if (!isXrdp(argv)) {
    return { kind: 'not-xrdp', pid: xrdpPid, program: path.basename(argv?.[0] ?? 'unknown') };
  }
  const own = new Set(socketInodes(await reader.fds(xrdpPid)));

  // xorgxrdp: a unix socket of the child whose peer is bound to xrdp_display_N.
  let display: number | undefined;
  let serverInode: number | undefined;
  const unix = parseSsUnix(await reader.unix());
  const byInode = new Map(unix.map((u) => [u.inode, u]));
  for (const u of unix) {
    if (!own.has(u.inode) || u.peer === undefined) continue;
    const peer = byInode.get(u.peer);
    const n = displayOfSocketPath(peer?.path);
    if (n !== undefined) {
      display = n;
      serverInode = u.peer;
      break;
    }
  }
  // Xvnc: a TCP connection of the child to 127.0.0.1:5900+N.
  if (display === undefined) {
    const vnc = tcp.find((e) => own.has(e.inode) && e.remotePort > VNC_BASE && e.remotePort < VNC_BASE + 1000);
    if (vnc) display = vnc.remotePort - VNC_BASE;
  }
  if (display === undefined) {
    return { kind: 'pending', why: 'xrdp has not connected this login to a session display yet', xrdpPid };
  }

  // The X server: the holder of the display socket's other end, else the X program named :N.
  let serverPid =
    serverInode === undefined ? undefined : (await holderOf(reader, new Set([serverInode]))).get(serverInode);
  let serverArgv = serverPid === undefined ? undefined : await reader.cmdline(serverPid);
  if (!serverArgv || !servesDisplay(serverArgv, display)) {
    serverPid = undefined;
    for (const pid of await reader.pids()) {
      const a = await reader.cmdline(pid);
      if (a && servesDisplay(a, display)) {
        serverPid = pid;
        serverArgv = a;
        break;
      }
    }
  }
  if (serverPid === undefined || !serverArgv) {
    return { kind: 'pending', why: `the X server of display :${display} is not running yet`, xrdpPid };
  }
  const uid = await reader.uid(serverPid);
  if (uid === undefined) return { kind: 'pending', why: `the X server of display :${display} went away`, xrdpPid };
  const account = passwdEntry(await reader.passwd(), uid);
  let xauthority = authFromCmdline(serverArgv, await reader.cwd(serverPid));
  if (!xauthority && account?.home) {
    const fallback = path.join(account.home, '.Xauthority');
    if (await reader.exists(fallback)) xauthority = fallback;
  }
  return {
    kind: 'session',
    session: {
      display: `:${display}`,
      xrdpPid,
      serverPid,
      user: account?.name ?? String(uid),
      uid,
      xauthority,
    },
  };
}

/** Whether a found session still serves this stream: the xrdp child and its X server both live. */
export async function sessionAlive(reader: ProcReader, session: XrdpSession): Promise<boolean> {
  const server = await reader.cmdline(session.serverPid);
  if (!server || !servesDisplay(server, Number(session.display.slice(1)))) return false;
  return isXrdp(await reader.cmdline(session.xrdpPid));
}

const readText = (file: string) => fs.readFile(file, 'utf8').catch(() => '');

/** The real reader over /proc, /etc/passwd and `ss`. */
export function procReader(ss = 'ss'): ProcReader {
  return {
    tcp: async () => `${await readText('/proc/net/tcp')}\n${await readText('/proc/net/tcp6')}`,
    unix: async () => (await execFileAsync(ss, ['-xan'], { maxBuffer: 32 * 1024 * 1024 })).stdout,
    pids: async () =>
      (await fs.readdir('/proc').catch(() => [] as string[])).filter((n) => /^\d+$/.test(n)).map(Number),
    fds: async (pid) => {
      const dir = `/proc/${pid}/fd`;
      const names = await fs.readdir(dir).catch(() => [] as string[]);
      const targets = await Promise.all(names.map((n) => fs.readlink(`${dir}/${n}`).catch(() => '')));
      return targets.filter(Boolean);
    },
    cmdline: async (pid) => {
      const raw = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      return raw ? raw.replace(/\0$/, '').split('\0') : undefined;
    },
    cwd: (pid) => fs.readlink(`/proc/${pid}/cwd`).catch(() => undefined),
    uid: async (pid) => {
      const m = /^Uid:\s+(\d+)/m.exec(await readText(`/proc/${pid}/status`));
      return m?.[1] ? Number(m[1]) : undefined;
    },
    passwd: () => readText('/etc/passwd'),
    exists: (file) =>
      fs.access(file).then(
        () => true,
        () => false,
      ),
  };
}
