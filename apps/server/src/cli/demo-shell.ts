import type { CastEvent } from '@gatehouse/contracts';
import { castTime } from '../recordings/import.js';
import { commandsFor, ip } from './demo-commands.js';
import { type Rng, pick } from './demo-rng.js';

/** A date as `last` prints it: Mon Mar  4 09:12:44 2024. */
function lastLogin(date: Date): string {
  const [weekday, day, month, year, time] = date.toUTCString().replace(',', '').split(' ');
  return `${weekday} ${month} ${String(Number(day)).padStart(2)} ${time} ${year}`;
}

/** The session's parameters: who, where, and how long it lasted (or has lasted, while live). */
export interface ShellSession {
  login: string;
  hostname: string;
  startedOn: Date;
  durationSeconds: number;
  /** Still open when the recording ends (live, or cut off): no `exit` is typed. */
  open: boolean;
}

/**
 * A plausible interactive shell: banner, prompt, commands typed key by key (the echo is output),
 * their output or a full-screen program's frames, idle pauses, and `exit` unless it stayed open.
 * Event times spread over the session's duration.
 */
export function shellEvents(rng: Rng, session: ShellSession): CastEvent[] {
  const short = session.hostname.split('.')[0] ?? session.hostname;
  const prompt = `\u001b[01;32m${session.login}@${short}\u001b[00m:\u001b[01;34m~\u001b[00m$ `;
  const commands = commandsFor(session.hostname);
  const count = Math.max(1, Math.min(6, Math.round(session.durationSeconds / 600 + rng() * 3)));
  const typing = 0.04 + rng() * 0.07;
  const activeGuess = count * 6;
  const idle = Math.max(0.5, (session.durationSeconds * 0.95 - activeGuess) / (count + 1));
  const events: CastEvent[] = [];
  let t = 0.05 + rng() * 0.3;
  const out = (text: string, gap = 0.01) => {
    t += gap;
    events.push([castTime(t), 'o', text]);
  };
  out(`Linux ${short} 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 x86_64\r\n\r\n`);
  out(
    `Last login: ${lastLogin(new Date(session.startedOn.getTime() - rng() * 3 * 86_400_000))} from ${ip(rng)}\r\n`,
    0.02,
  );
  out(prompt, 0.05);
  const type = (text: string) => {
    // Half the commands come back from the history (one keystroke shows the whole line).
    if (rng() < 0.5) out(text, 0.3 + rng());
    else for (const key of text) out(key, typing * (0.5 + rng()));
    out('\r\n', typing);
  };
  for (let i = 0; i < count; i += 1) {
    t += idle * (0.4 + rng() * 1.2);
    if (session.open && t > session.durationSeconds - 1) break;
    const [command, run] = pick(rng, commands);
    type(command);
    const output = run(rng, session.hostname);
    if ('lines' in output) {
      for (const line of output.lines) out(`${line}\r\n`, 0.006 + rng() * 0.02);
    } else {
      for (const frame of output.frames) out(frame, 1.5 + rng() * 2);
      out(output.quit, 0.8 + rng());
      if (output.after) out(`${output.after}\r\n`, 0.01);
    }
    out(prompt, 0.02);
  }
  if (!session.open) {
    t = Math.max(t, session.durationSeconds - 2);
    type('exit');
    out('logout\r\n', 0.01);
    return events;
  }
  // An open session's events stop at its end (now, while it is live).
  return events.filter((e) => e[0] < session.durationSeconds);
}

/**
 * A session left open for a day or more: `journalctl -f` printing a line about every minute, so
 * its events span the whole duration (what the replay's seek must cope with).
 */
export function followEvents(rng: Rng, session: ShellSession): CastEvent[] {
  const short = session.hostname.split('.')[0] ?? session.hostname;
  const events: CastEvent[] = [[0.2, 'o', `${session.login}@${short}:~$ `]];
  const units = [
    'cron[4121]: (root) CMD (run-parts /etc/cron.hourly)',
    'systemd[1]: Started session-cleanup.service.',
    'app[2210]: GET /health 200 3ms',
    'kernel: [UFW BLOCK] IN=eth0 SRC=203.0.113.9 DST=10.0.0.4 PROTO=TCP DPT=23',
    'sshd[9981]: Accepted publickey for deploy from 10.0.1.7 port 51122',
    'app[2210]: worker heartbeat ok, queue depth 0',
  ];
  for (const [i, key] of [...'sudo journalctl -f\r\n'].entries()) events.push([castTime(1 + i * 0.12), 'o', key]);
  const end = session.durationSeconds - (session.open ? 5 : 30);
  for (let t = 60 + rng() * 10; t < end; t += 45 + rng() * 30) {
    const at = new Date(session.startedOn.getTime() + t * 1000).toISOString().slice(5, 19).replace('T', ' ');
    events.push([castTime(t), 'o', `${at} ${short} ${pick(rng, units)}\r\n`]);
  }
  if (!session.open) {
    events.push([castTime(end + 10), 'o', '^C\r\n']);
    events.push([castTime(end + 12), 'o', `${session.login}@${short}:~$ `]);
    for (const [i, key] of [...'exit\r\n'].entries()) events.push([castTime(end + 15 + i * 0.15), 'o', key]);
    events.push([castTime(end + 16), 'o', 'logout\r\n']);
  }
  return events;
}

/**
 * What an RDP, generic or agent tunnel records: the byte counts of each second with traffic (at
 * most about 60 lines, so a long session stays small), then the remainder when it closes.
 */
export function tunnelEvents(rng: Rng, target: string, durationSeconds: number, live: boolean): CastEvent[] {
  const events: CastEvent[] = [];
  const end = live ? durationSeconds - 1 : durationSeconds;
  const step = Math.max(1, end / 60);
  for (let t = 1 + rng(); t < end; t += Math.max(1, Math.round(step * (0.5 + rng())))) {
    const up = Math.floor(200 + rng() * 8000);
    const down = Math.floor(2000 + rng() * 90000);
    events.push([castTime(t), 'o', `${up} bytes to ${target}, ${down} bytes back\r\n`]);
  }
  if (!live) {
    const rest = `${Math.floor(rng() * 900)} bytes to the host, ${Math.floor(rng() * 9000)} bytes back\r\n`;
    events.push([castTime(end), 'o', rest]);
  }
  return events;
}
