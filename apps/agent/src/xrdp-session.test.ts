import { describe, expect, it } from 'vitest';
import {
  type ProcReader,
  authFromCmdline,
  lookupSession,
  parseProcNetTcp,
  parseSsUnix,
  passwdEntry,
  sessionAlive,
} from './xrdp-session.js';

// Fixtures copied from a real xrdp 0.9.21 + xorgxrdp login on Debian 12 (xfreerdp from port
// 35276 to xrdp on 22184; the xrdp child 13511 connected to Xorg 13530 on display :258).
const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
  14: 0100007F:56A8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 28912 1 00000000078c9696 100 0 0 10 0
  31: 0100007F:56A8 0100007F:89CC 01 00000000:00000000 02:000A4875 00000000     0        0 29275 2 00000000f835a20d 20 4 16 18 -1
  45: 0100007F:89CC 0100007F:56A8 01 00000000:00000000 02:000000A9 00000000     0        0 27870 2 00000000b8d6dc6d 20 4 25 18 -1
`;
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:8281 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 28920 1 0000000000000000 100 0 0 10 0
`;
const SS = `Netid State  Recv-Q Send-Q                               Local Address:Port  Peer Address:Port
u_str LISTEN 0      2         /run/xrdp/sockdir/xrdp_display_258 27947            * 0
u_str ESTAB  0      0                /run/xrdp/sockdir/xrdp_chansrv_socket_258 27934            * 27906
u_str ESTAB  0      0                                                        * 27895            * 27948
u_str ESTAB  0      0                       /run/xrdp/sockdir/xrdp_display_258 27948            * 27895
u_str ESTAB  0      0                                                        * 27906            * 27934
`;
const PASSWD = 'root:x:0:0:root:/root:/bin/bash\nghb7553:x:1001:1001::/home/ghb7553:/bin/bash\n';

interface Proc {
  argv: string[];
  fds: string[];
  cwd?: string;
  uid?: number;
}

function reader(procs: Record<number, Proc>, extra: { tcp?: string; ss?: string; files?: string[] } = {}): ProcReader {
  return {
    tcp: () => Promise.resolve(extra.tcp ?? `${TCP}\n${TCP6}`),
    unix: () => Promise.resolve(extra.ss ?? SS),
    pids: () => Promise.resolve(Object.keys(procs).map(Number)),
    fds: (pid) => Promise.resolve(procs[pid]?.fds ?? []),
    cmdline: (pid) => Promise.resolve(procs[pid]?.argv),
    cwd: (pid) => Promise.resolve(procs[pid]?.cwd),
    uid: (pid) => Promise.resolve(procs[pid]?.uid),
    passwd: () => Promise.resolve(PASSWD),
    exists: (file) => Promise.resolve((extra.files ?? []).includes(file)),
  };
}

const XRDP_PARENT: Proc = { argv: ['/usr/sbin/xrdp', '-n', '-c', '/tmp/x/xrdp.ini'], fds: ['socket:[28912]'], uid: 0 };
const XRDP_CHILD: Proc = {
  argv: ['/usr/sbin/xrdp', '-n', '-c', '/tmp/x/xrdp.ini'],
  fds: ['/dev/null', 'socket:[28912]', 'socket:[29275]', 'socket:[27895]', 'socket:[27906]'],
  uid: 0,
};
const XORG: Proc = {
  argv: ['/usr/lib/xorg/Xorg', ':258', '-auth', '.Xauthority', '-config', 'xrdp/xorg.conf', '-noreset'],
  fds: ['socket:[27947]', 'socket:[27948]'],
  cwd: '/home/ghb7553',
  uid: 1001,
};
const AGENT = { localPort: 0x89cc, remotePort: 0x56a8 };

describe('parsing /proc/net/tcp and ss -xan', () => {
  it('reads ports, state and inode of IPv4 and IPv6 lines', () => {
    expect(parseProcNetTcp(`${TCP}\n${TCP6}`)).toEqual([
      { localPort: 22184, remotePort: 0, state: 0x0a, inode: 28912 },
      { localPort: 22184, remotePort: 35276, state: 1, inode: 29275 },
      { localPort: 35276, remotePort: 22184, state: 1, inode: 27870 },
      { localPort: 33409, remotePort: 0, state: 0x0a, inode: 28920 },
    ]);
  });

  it('reads unix sockets with their path and peer', () => {
    const entries = parseSsUnix(SS);
    expect(entries).toContainEqual({ inode: 27948, path: '/run/xrdp/sockdir/xrdp_display_258', peer: 27895 });
    expect(entries).toContainEqual({ inode: 27895, path: undefined, peer: 27948 });
    expect(entries).toContainEqual({ inode: 27947, path: '/run/xrdp/sockdir/xrdp_display_258', peer: undefined });
  });

  it('resolves -auth against the X server’s working directory, and finds a uid’s home', () => {
    expect(authFromCmdline(XORG.argv, '/home/u')).toBe('/home/u/.Xauthority');
    expect(authFromCmdline(['Xvnc', ':11', '-auth', '/var/x/auth'], undefined)).toBe('/var/x/auth');
    expect(authFromCmdline(['Xvnc', ':11'], '/home/u')).toBeUndefined();
    expect(passwdEntry(PASSWD, 1001)).toEqual({ name: 'ghb7553', home: '/home/ghb7553' });
  });
});

describe('which xrdp session a stream became', () => {
  it('follows the TCP connection to the xrdp child, its display socket to Xorg, and Xorg’s -auth', async () => {
    const found = await lookupSession(reader({ 100: XRDP_PARENT, 13511: XRDP_CHILD, 13530: XORG }), AGENT);
    expect(found).toEqual({
      kind: 'session',
      session: {
        display: ':258',
        xrdpPid: 13511,
        serverPid: 13530,
        user: 'ghb7553',
        uid: 1001,
        xauthority: '/home/ghb7553/.Xauthority',
      },
    });
  });

  it('waits while the login is not done (the child has no display connection yet)', async () => {
    const child = { ...XRDP_CHILD, fds: ['socket:[29275]'] };
    const found = await lookupSession(reader({ 13511: child }), AGENT);
    expect(found).toMatchObject({ kind: 'pending', xrdpPid: 13511 });
  });

  it('waits while nobody took the connection off the listen queue', async () => {
    expect(await lookupSession(reader({ 100: XRDP_PARENT }), AGENT)).toMatchObject({ kind: 'pending' });
  });

  it('answers gone when the connection no longer exists', async () => {
    expect(await lookupSession(reader({}, { tcp: TCP6 }), AGENT)).toEqual({ kind: 'gone' });
  });

  it('says which program it is when the RDP server is not xrdp', async () => {
    const shadow: Proc = { argv: ['freerdp-shadow-cli', '/port:22184'], fds: ['socket:[29275]'] };
    expect(await lookupSession(reader({ 200: shadow }), AGENT)).toEqual({
      kind: 'not-xrdp',
      pid: 200,
      program: 'freerdp-shadow-cli',
    });
  });

  it('finds an Xvnc session through the child’s TCP connection to 5900+N, with ~/.Xauthority', async () => {
    const tcp = `${TCP}  50: 0100007F:9C2E 0100007F:1717 01 00000000:00000000 00:00000000 00000000     0        0 31000 1\n`;
    const child = { ...XRDP_CHILD, fds: ['socket:[29275]', 'socket:[31000]'] };
    const xvnc: Proc = { argv: ['Xvnc', ':11', '-geometry', '800x600'], fds: [], uid: 1001, cwd: '/' };
    const found = await lookupSession(
      reader({ 13511: child, 400: xvnc }, { tcp, files: ['/home/ghb7553/.Xauthority'] }),
      AGENT,
    );
    expect(found).toMatchObject({
      kind: 'session',
      session: { display: ':11', serverPid: 400, xauthority: '/home/ghb7553/.Xauthority' },
    });
  });

  it('keeps two users’ streams apart: each reaches its own display and authority', async () => {
    // A second connection (port 35300 → 22184, inode 29300) whose child 13600 reached Xorg :259.
    const tcp = `${TCP}  60: 0100007F:56A8 0100007F:89E4 01 00000000:00000000 00:00000000 00000000     0        0 29300 1\n`;
    const ss = `${SS}u_str ESTAB 0 0 * 28001 * 28002\nu_str ESTAB 0 0 /run/xrdp/sockdir/xrdp_display_259 28002 * 28001\n`;
    const child2: Proc = { argv: ['/usr/sbin/xrdp'], fds: ['socket:[29300]', 'socket:[28001]'] };
    const xorg2: Proc = {
      argv: ['/usr/lib/xorg/Xorg', ':259', '-auth', '.Xauthority'],
      fds: ['socket:[28002]'],
      cwd: '/home/b',
      uid: 0,
    };
    const r = reader({ 13511: XRDP_CHILD, 13530: XORG, 13600: child2, 13610: xorg2 }, { tcp, ss });
    const first = await lookupSession(r, AGENT);
    const second = await lookupSession(r, { localPort: 0x89e4, remotePort: 0x56a8 });
    expect(first).toMatchObject({ session: { display: ':258', xauthority: '/home/ghb7553/.Xauthority' } });
    expect(second).toMatchObject({ session: { display: ':259', xauthority: '/home/b/.Xauthority', user: 'root' } });
  });

  it('sees the session end when its X server or its xrdp child is gone', async () => {
    const session = { display: ':258', xrdpPid: 13511, serverPid: 13530, user: 'u', uid: 1001, xauthority: undefined };
    expect(await sessionAlive(reader({ 13511: XRDP_CHILD, 13530: XORG }), session)).toBe(true);
    expect(await sessionAlive(reader({ 13511: XRDP_CHILD }), session)).toBe(false);
    expect(await sessionAlive(reader({ 13530: XORG }), session)).toBe(false);
  });
});
