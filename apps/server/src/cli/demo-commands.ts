import { type Rng, pick } from './demo-rng.js';

/** What one command prints: lines, or a full-screen program's frames shown a few seconds apart. */
export type Output = { lines: string[] } | { frames: string[]; quit: string; after?: string };
export type Command = [command: string, output: (rng: Rng, host: string) => Output];

const pad = (value: string | number, width: number) => String(value).padStart(width);
export const ip = (rng: Rng) => `10.0.${Math.floor(rng() * 8)}.${Math.floor(rng() * 250) + 2}`;
export const clock = (rng: Rng) =>
  `${pad(Math.floor(rng() * 24), 2).replace(' ', '0')}:${pad(Math.floor(rng() * 60), 2).replace(' ', '0')}`;

function topFrame(rng: Rng, host: string): string {
  const load = [rng() * 2, rng() * 1.5, rng()].map((v) => v.toFixed(2)).join(', ');
  const procs = ['nginx', 'node', 'postgres', 'sshd', 'systemd', 'containerd', 'redis-server', 'cron']
    .map((name, i) => ({ name, cpu: rng() * (i === 0 ? 40 : 9) }))
    .sort((a, b) => b.cpu - a.cpu);
  return [
    `\u001b[H\u001b[2Jtop - ${clock(rng)}:07 up ${Math.floor(rng() * 200) + 3} days,  2 users,  load average: ${load}`,
    `Tasks: ${140 + Math.floor(rng() * 40)} total,   1 running, 150 sleeping,   0 stopped,   0 zombie`,
    `%Cpu(s): ${(rng() * 20).toFixed(1)} us,  ${(rng() * 5).toFixed(1)} sy,  0.0 ni, ${(75 + rng() * 20).toFixed(1)} id`,
    `MiB Mem :  15953.2 total,   ${(2000 + rng() * 6000).toFixed(1)} free,   ${(3000 + rng() * 4000).toFixed(1)} used`,
    '',
    '\u001b[7m    PID USER      PR  NI    VIRT    RES  %CPU  %MEM     TIME+ COMMAND          \u001b[0m',
    ...procs.map(
      (p, i) =>
        `${pad(900 + i * 137, 7)} ${p.name === 'postgres' ? 'postgres' : 'root    '}  20   0 ${pad(Math.floor(rng() * 900000), 7)} ${pad(Math.floor(rng() * 90000), 6)} ${pad(p.cpu.toFixed(1), 5)} ${pad((rng() * 4).toFixed(1), 5)}   ${Math.floor(rng() * 90)}:${pad(Math.floor(rng() * 60), 2).replace(' ', '0')}.12 ${p.name}`,
    ),
    `\u001b[K${host}`,
  ].join('\r\n');
}

function vim(file: string, lines: string[], edit: string): Output {
  const screen = (extra: string) =>
    `\u001b[?1049h\u001b[H\u001b[2J${lines.join('\r\n')}\r\n${'~\r\n'.repeat(6)}\u001b[24;1H${extra}`;
  return {
    frames: [
      screen(`"${file}" ${lines.length}L, ${lines.join('\n').length}B`),
      screen('-- INSERT --'),
      `${edit}\u001b[24;1H:wq`,
    ],
    quit: '\u001b[?1049l',
    after: `"${file}" ${lines.length + 1}L, ${lines.join('\n').length + edit.length + 1}B written`,
  };
}

const COMMON: Command[] = [
  [
    'uptime',
    (r) => ({
      lines: [
        ` ${clock(r)}:41 up ${Math.floor(r() * 200) + 3} days,  1 user,  load average: 0.${Math.floor(r() * 90) + 10}, 0.31, 0.28`,
      ],
    }),
  ],
  [
    'df -h /',
    (r) => ({
      lines: [
        'Filesystem      Size  Used Avail Use% Mounted on',
        `/dev/nvme0n1p1   80G   ${Math.floor(r() * 60) + 10}G   ${Math.floor(r() * 30) + 5}G  ${Math.floor(r() * 80) + 10}% /`,
      ],
    }),
  ],
  [
    'free -m',
    (r) => ({
      lines: [
        '               total        used        free      shared  buff/cache   available',
        `Mem:           15953        ${Math.floor(3000 + r() * 6000)}        ${Math.floor(1000 + r() * 4000)}         210        6120       ${Math.floor(6000 + r() * 4000)}`,
        'Swap:              0           0           0',
      ],
    }),
  ],
  [
    'ls -la',
    (r) => ({
      lines: [
        'total 40',
        'drwxr-xr-x 6 deploy deploy 4096 Mar  3 09:12 .',
        'drwxr-xr-x 4 root   root   4096 Jan 12 14:01 ..',
        '-rw------- 1 deploy deploy 2211 Mar  3 09:40 .bash_history',
        `drwxr-xr-x 3 deploy deploy 4096 Feb ${pad(Math.floor(r() * 27) + 1, 2)} 16:22 releases`,
        'lrwxrwxrwx 1 deploy deploy   24 Mar  3 09:12 current -> releases/20240303-0912',
        '-rw-r--r-- 1 deploy deploy  807 Jan 12 14:01 .profile',
      ],
    }),
  ],
  [
    'top',
    (r, h) => ({
      frames: [topFrame(r, h), topFrame(r, h)].map((f) => `\u001b[?1049h${f}`),
      quit: '\u001b[?1049l',
    }),
  ],
  [
    'last -n 3',
    (r) => ({
      lines: [
        `deploy   pts/0        ${ip(r)}        Mon Mar  4 ${clock(r)}   still logged in`,
        `deploy   pts/1        ${ip(r)}        Sun Mar  3 ${clock(r)} - ${clock(r)}  (00:14)`,
        '',
        'wtmp begins Fri Mar  1 00:00:01 2024',
      ],
    }),
  ],
  [
    'sudo journalctl -p err -n 4 --no-pager',
    (r) => ({
      lines: [
        '-- Journal begins at Fri 2024-03-01 00:00:01 UTC. --',
        `Mar 04 ${clock(r)}:12 kernel: TCP: request_sock_TCP: Possible SYN flooding on port 443.`,
        `Mar 04 ${clock(r)}:55 systemd[1]: Failed to start apt-daily.service.`,
      ],
    }),
  ],
];

const BY_HOST: Record<string, Command[]> = {
  web: [
    [
      'sudo systemctl status nginx --no-pager',
      (r) => ({
        lines: [
          '\u001b[0;1;32m●\u001b[0m nginx.service - A high performance web server and a reverse proxy server',
          '     Loaded: loaded (/lib/systemd/system/nginx.service; enabled; preset: enabled)',
          `     Active: \u001b[0;1;32mactive (running)\u001b[0m since Mon 2024-03-04 ${clock(r)}:02 UTC; ${Math.floor(r() * 20) + 1}h ago`,
          `   Main PID: ${Math.floor(r() * 9000) + 600} (nginx)`,
        ],
      }),
    ],
    [
      'tail -n 4 /var/log/nginx/access.log',
      (r) => ({
        lines: Array.from(
          { length: 4 },
          () =>
            `${ip(r)} - - [04/Mar/2024:${clock(r)}:${pad(Math.floor(r() * 60), 2).replace(' ', '0')} +0000] "GET /api/orders?page=${Math.floor(r() * 40)} HTTP/1.1" ${pick(r, [200, 200, 200, 304, 404, 502])} ${Math.floor(r() * 9000)} "-" "Mozilla/5.0"`,
        ),
      }),
    ],
    [
      'sudo nginx -t && sudo systemctl reload nginx',
      () => ({
        lines: [
          'nginx: the configuration file /etc/nginx/nginx.conf syntax is ok',
          'nginx: configuration file /etc/nginx/nginx.conf test is successful',
        ],
      }),
    ],
    [
      'git -C current log --oneline -4',
      (r) => ({
        lines: Array.from(
          { length: 4 },
          (_, i) =>
            `\u001b[33m${Math.floor(r() * 0xfffffff)
              .toString(16)
              .padStart(
                7,
                '0',
              )}\u001b[m ${pick(r, ['Fix checkout rounding', 'Bump dependencies', 'Cache product images', 'Add health endpoint', 'Retry payment webhook'])}${i === 0 ? ' (HEAD -> main)' : ''}`,
        ),
      }),
    ],
    [
      'docker ps --format "{{.Names}}\\t{{.Status}}"',
      (r) => ({
        lines: [
          `app-web-1\tUp ${Math.floor(r() * 9) + 1} days`,
          `app-worker-1\tUp ${Math.floor(r() * 9) + 1} days`,
          'app-redis-1\tUp 12 days (healthy)',
        ],
      }),
    ],
    [
      'vim /etc/nginx/sites-available/shop.conf',
      (r) =>
        vim(
          '/etc/nginx/sites-available/shop.conf',
          [
            'server {',
            '    listen 443 ssl;',
            '    server_name shop.example.com;',
            '    location / {',
            '        proxy_pass http://127.0.0.1:8080;',
            '    }',
            '}',
          ],
          `    client_max_body_size ${Math.floor(r() * 40) + 10}m;`,
        ),
    ],
  ],
  db: [
    [
      "psql -c 'select count(*) from orders'",
      (r) => ({ lines: ['  count  ', '---------', ` ${Math.floor(r() * 900000) + 100000}`, '(1 row)', ''] }),
    ],
    [
      'pg_lsclusters',
      () => ({
        lines: [
          'Ver Cluster Port Status Owner    Data directory              Log file',
          '15  main    5432 online postgres /var/lib/postgresql/15/main /var/log/postgresql/postgresql-15-main.log',
        ],
      }),
    ],
    [
      'du -sh /var/lib/postgresql/15/main',
      (r) => ({ lines: [`${Math.floor(r() * 300) + 40}G\t/var/lib/postgresql/15/main`] }),
    ],
    [
      'tail -n 3 /var/log/postgresql/postgresql-15-main.log',
      (r) => ({
        lines: [
          `2024-03-04 ${clock(r)}:01 UTC [812] LOG:  checkpoint starting: time`,
          `2024-03-04 ${clock(r)}:31 UTC [812] LOG:  checkpoint complete: wrote ${Math.floor(r() * 4000)} buffers`,
          `2024-03-04 ${clock(r)}:12 UTC [3301] LOG:  duration: ${Math.floor(r() * 3000) + 500}.221 ms  statement: SELECT * FROM order_items`,
        ],
      }),
    ],
    [
      'vim /etc/postgresql/15/main/postgresql.conf',
      (r) =>
        vim(
          'postgresql.conf',
          [
            'max_connections = 200',
            'shared_buffers = 4GB',
            'work_mem = 16MB',
            'maintenance_work_mem = 512MB',
            'wal_level = replica',
          ],
          `effective_cache_size = ${Math.floor(r() * 8) + 8}GB`,
        ),
    ],
  ],
  mac: [
    ['sw_vers', () => ({ lines: ['ProductName:\t\tmacOS', 'ProductVersion:\t\t14.3.1', 'BuildVersion:\t\t23D60'] })],
    [
      'ls ~/builds | tail -n 3',
      (r) => ({ lines: Array.from({ length: 3 }, (_, i) => `ios-app-${2400 + Math.floor(r() * 90) + i}.ipa`) }),
    ],
    ['xcodebuild -version', () => ({ lines: ['Xcode 15.2', 'Build version 15C500b'] })],
  ],
};

/** The commands a session on this host may run: its role's and the common ones. */
export function commandsFor(hostname: string): Command[] {
  const role = hostname.startsWith('db') ? 'db' : hostname.startsWith('mac') ? 'mac' : 'web';
  return [...(BY_HOST[role] ?? []), ...COMMON];
}
