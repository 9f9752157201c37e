import { Prng, seedOf } from './prng';
import type { MockRecording } from './types';

/** A generated asciicast v2 file and where its events lie. */
export interface MockCast {
  bytes: Uint8Array;
  /** Offset of the first event (after the header line). */
  eventsStart: number;
  /** Offset, time and output of each event, in order. */
  events: { offset: number; t: number; data: string }[];
  /** Time of the last event. */
  duration: number;
}

/** Commands an operator types, with what the host prints. */
const COMMANDS: [string, string[]][] = [
  ['uptime', [' 14:02:11 up 41 days,  3:12,  1 user,  load average: 0.32, 0.41, 0.38']],
  ['df -h /', ['Filesystem      Size  Used Avail Use% Mounted on', '/dev/nvme0n1p1   97G   41G   56G  43% /']],
  [
    'free -m',
    [
      '               total        used        free      shared  buff/cache   available',
      'Mem:           15891        6120         812         164        8958        9296',
      'Swap:              0           0           0',
    ],
  ],
  [
    'systemctl status nginx --no-pager',
    [
      '\u001b[32m●\u001b[0m nginx.service - A high performance web server and a reverse proxy server',
      '     Loaded: loaded (/lib/systemd/system/nginx.service; enabled; vendor preset: enabled)',
      '     Active: \u001b[32mactive (running)\u001b[0m since Mon 2025-09-01 08:14:02 UTC; 4 weeks 1 day ago',
      '   Main PID: 1123 (nginx)',
      '      Tasks: 5 (limit: 18976)',
    ],
  ],
  [
    'tail -n 3 /var/log/nginx/access.log',
    [
      '10.0.4.21 - - [30/Sep/2025:14:01:55 +0000] "GET /api/orders?page=2 HTTP/1.1" 200 5123 "-" "okhttp/4.12"',
      '10.0.4.17 - - [30/Sep/2025:14:01:57 +0000] "POST /api/cart HTTP/1.1" 201 311 "-" "Mozilla/5.0"',
      '10.0.4.21 - - [30/Sep/2025:14:01:58 +0000] "GET /healthz HTTP/1.1" 200 2 "-" "kube-probe/1.30"',
    ],
  ],
  [
    "docker ps --format 'table {{.Names}}\\t{{.Status}}'",
    ['NAMES           STATUS', 'orders-api      Up 6 days', 'orders-worker   Up 6 days', 'node-exporter   Up 3 weeks'],
  ],
  [
    'git -C /srv/app log --oneline -3',
    ['9f1c2ab Retry payment webhook on 502', '41d0e7c Bump pg to 8.12', 'c3a9912 Orders: paginate by id'],
  ],
  [
    "sudo journalctl -u app --since '10 min ago' | tail -n 2",
    [
      'Sep 30 14:00:02 host app[2211]: INFO  worker: processed 128 jobs in 4.1s',
      'Sep 30 14:01:02 host app[2211]: WARN  worker: job 88412 retried (timeout after 30s)',
    ],
  ],
  ["psql -c 'select count(*) from orders;'", ['  count  ', '---------', ' 1284017', '(1 row)']],
  ['ls /etc/nginx/sites-enabled', ['api.conf  default  shop.conf']],
];

const encoder = new TextEncoder();

/**
 * A short shell session for an SSH recording: a login banner, a few commands typed key by key
 * with their output, and (when it ended) the logout. The same recording always gets the same file.
 */
export function buildCast(recording: MockRecording): MockCast {
  const rng = new Prng(seedOf(recording.id));
  const short = recording.host.hostname.split('.')[0] ?? recording.host.hostname;
  const prompt = `\u001b[1;32m${recording.login}@${short}\u001b[0m:\u001b[1;34m~\u001b[0m$ `;
  const raw: [number, string][] = [];
  let t = 0.3;
  const out = (data: string, gap: number) => {
    t += gap;
    raw.push([Math.round(t * 1000) / 1000, data]);
  };
  out(`Welcome to Ubuntu 22.04.4 LTS (GNU/Linux 5.15.0-105-generic x86_64)\r\n\r\n`, 0);
  out(`Last login: ${new Date(Date.parse(recording.started_on) - 86_400_000).toUTCString()} from 10.0.8.14\r\n`, 0.05);
  out(prompt, 0.2);
  const type = (command: string) => {
    for (const char of command) out(char, 0.05 + rng.next() * 0.15);
    out('\r\n', 0.3);
  };
  for (const [command, lines] of rng.sample(COMMANDS, rng.int(3, 6))) {
    t += 1 + rng.next() * 5;
    type(command);
    for (const line of lines) out(`${line}\r\n`, 0.01 + rng.next() * 0.04);
    out(prompt, 0.05);
  }
  if (recording.ended_on !== null) {
    t += 1 + rng.next() * 3;
    type('exit');
    out('logout\r\n', 0.05);
  }
  const header = JSON.stringify({
    version: 2,
    width: recording.width,
    height: recording.height,
    timestamp: Math.floor(Date.parse(recording.started_on) / 1000),
    env: { TERM: 'xterm-256color', SHELL: '/bin/bash' },
  });
  const lines = [header, ...raw.map(([at, data]) => JSON.stringify([at, 'o', data]))].map((line) =>
    encoder.encode(`${line}\n`),
  );
  const bytes = new Uint8Array(lines.reduce((sum, line) => sum + line.length, 0));
  const events: MockCast['events'] = [];
  let offset = 0;
  lines.forEach((line, index) => {
    bytes.set(line, offset);
    const event = raw[index - 1];
    if (event) events.push({ offset, t: event[0], data: event[1] });
    offset += line.length;
  });
  return { bytes, eventsStart: lines[0]?.length ?? 0, events, duration: raw.at(-1)?.[0] ?? 0 };
}

/** Where time t lies: the first event at or after it, else the end of the file (as GET /seek answers). */
export function seekCast(cast: MockCast, t: number) {
  const event = cast.events.find((e) => e.t >= t);
  const size = cast.bytes.length;
  return {
    t: event?.t ?? cast.duration,
    offset: event?.offset ?? size,
    size,
    events_start: cast.eventsStart,
    duration: cast.duration,
  };
}

// Escape sequences (CSI, OSC, two-byte ESC) and control characters but newlines, as the server strips them.
const CONTROL =
  // eslint-disable-next-line no-control-regex
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|[\u0000-\u0008\u000b-\u001f\u007f]/g;

type MockHit = ReturnType<typeof excerptAt> & { t: number; offset: number };

/** About 40 characters each side of a match, whole words only, whitespace runs as one space (as the server cuts). */
function excerptAt(text: string, at: number, length: number) {
  const tidy = (part: string) => part.replace(/\s+/g, ' ');
  const cutStart = at > 40;
  const cutEnd = at + length + 40 < text.length;
  const before = tidy(text.slice(Math.max(0, at - 40), at)).replace(cutStart ? /^\S*\s?/ : /^\s+/, '');
  const match = tidy(text.slice(at, at + length));
  const after = tidy(text.slice(at + length, at + length + 40)).replace(cutEnd ? /\s?\S*$/ : /\s+$/, '');
  return {
    excerpt: before + match + after,
    match_start: before.length,
    match_length: match.length,
    clipped_start: cutStart,
    clipped_end: cutEnd,
  };
}

/** Where text appears in the output (escapes ignored, any case), as GET /search answers: up to 500 hits. */
export function searchCast(cast: MockCast, query: string) {
  const needle = query.toLocaleLowerCase();
  const hits: MockHit[] = [];
  let tail = '';
  for (const event of cast.events) {
    const joined = tail + event.data.replace(CONTROL, '');
    const lower = joined.toLocaleLowerCase();
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
      if (at + needle.length <= tail.length) continue;
      hits.push({ t: event.t, offset: event.offset, ...excerptAt(joined, at, needle.length) });
      if (hits.length >= 500) return { hits, truncated: true };
    }
    tail = needle.length > 1 ? joined.slice(-(needle.length - 1)) : '';
  }
  return { hits, truncated: false };
}
