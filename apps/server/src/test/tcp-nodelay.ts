import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** One connected TCP socket of a process, and whether Nagle's algorithm is off on it. */
export interface TcpSocketState {
  fd: number;
  localPort: number;
  remotePort: number;
  /** TCP_NODELAY as the kernel holds it. */
  noDelay: boolean;
}

// Node cannot read TCP_NODELAY back, and `ss -i` does not show it. Perl (perl-base, on every Debian)
// can: pidfd_open (434) and pidfd_getfd (438) copy each socket of the process into perl, where
// getsockopt reads the option of the very socket the process holds. Non-TCP sockets answer "-".
const READ_NODELAY = `
use strict; use Socket qw(IPPROTO_TCP TCP_NODELAY);
my $pid = $ARGV[0] + 0;
my $pidfd = syscall(434, $pid, 0);
die "pidfd_open($pid): $!\\n" if $pidfd < 0;
opendir(my $dir, "/proc/$pid/fd") or die "/proc/$pid/fd: $!\\n";
for my $fd (grep { /^\\d+$/ } readdir $dir) {
  my $link = readlink("/proc/$pid/fd/$fd") // next;
  next unless $link =~ /^socket:\\[(\\d+)\\]$/;
  my $inode = $1;
  my $copy = syscall(438, $pidfd, $fd + 0, 0);
  die "pidfd_getfd($pid, $fd): $!\\n" if $copy < 0;
  open(my $socket, "+<&=", $copy) or die "fdopen: $!\\n";
  my $value = getsockopt($socket, IPPROTO_TCP, TCP_NODELAY);
  print "$fd $inode ", (defined $value ? unpack("i", $value) : "-"), "\\n";
  close $socket;
}
`;

/** Established TCP sockets (IPv4 and IPv6) by inode, from the process's view of the network. */
function established(pid: number): Map<string, { localPort: number; remotePort: number }> {
  const out = new Map<string, { localPort: number; remotePort: number }>();
  for (const file of ['tcp', 'tcp6']) {
    const lines = fs.readFileSync(`/proc/${pid}/net/${file}`, 'utf8').trim().split('\n').slice(1);
    for (const line of lines) {
      const f = line.trim().split(/\s+/);
      if (f[3] !== '01') continue; // ESTABLISHED
      const port = (address: string | undefined) => parseInt((address ?? '').split(':')[1] ?? '', 16);
      out.set(f[9] ?? '', { localPort: port(f[1]), remotePort: port(f[2]) });
    }
  }
  return out;
}

/** Every established TCP socket the process holds, with TCP_NODELAY read from the kernel. */
export function tcpSockets(pid: number): TcpSocketState[] {
  const text = execFileSync('perl', ['-e', READ_NODELAY, String(pid)], { encoding: 'utf8' });
  const tcp = established(pid);
  const sockets: TcpSocketState[] = [];
  for (const line of text.trim().split('\n')) {
    const [fd, inode, value] = line.split(' ');
    const ends = tcp.get(inode ?? '');
    if (!ends || value === '-') continue;
    sockets.push({ fd: Number(fd), ...ends, noDelay: value !== '0' });
  }
  return sockets;
}
