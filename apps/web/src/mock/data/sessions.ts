import type { Prng } from '../prng';
import type { MockAgent, MockGroup, MockRecording, MockTunnel, MockUser } from '../types';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Sessions over this many days before now. */
const DAYS = 30;
/** Relative activity per local hour: office hours with a lunch dip, a little on-call at night. */
const HOURLY = [
  0.05, 0.04, 0.04, 0.04, 0.05, 0.08, 0.2, 0.5, 1, 1.3, 1.4, 1.3, 0.9, 1.2, 1.4, 1.3, 1.1, 0.7, 0.4, 0.25, 0.2, 0.15,
  0.1, 0.07,
];
const WEIGHTS: Record<MockTunnel['type'], number> = { ssh: 10, rdp: 4, generic: 1.5, agent: 0.5 };
const SIZES: [number, number][] = [
  [80, 24],
  [120, 40],
  [160, 48],
  [100, 30],
];

/** Who may use a definition: its direct users and the members of its group and the group's children. */
function usersOf(tunnel: MockTunnel, users: MockUser[], groups: MockGroup[]): MockUser[] {
  const emails = new Set<string>();
  const visit = (name: string | null, seen: Set<string>) => {
    const group = groups.find((g) => g.name === name);
    if (!group || seen.has(group.name)) return;
    seen.add(group.name);
    group.users.forEach((email) => emails.add(email));
    group.groups.forEach((child) => visit(child, seen));
  };
  visit(tunnel.group, new Set());
  const admitted = users.filter((user) => emails.has(user.email) || tunnel.users.includes(user.id));
  return admitted.length > 0 ? admitted : users.slice(0, 3);
}

/** Seconds a session lasts: log-normal around a median per type, clamped. */
function duration(rng: Prng, type: MockTunnel['type']): number {
  const [median, spread, min, max] =
    type === 'ssh' ? [300, 1, 8, 4 * 3600] : type === 'rdp' ? [1500, 0.8, 60, 8 * 3600] : [600, 1.2, 5, 6 * 3600];
  return Math.round(Math.min(max, Math.max(min, median * Math.exp(spread * rng.normal()))));
}

function ending(rng: Prng, type: MockTunnel['type'], admins: MockUser[]): [string, string | null] {
  const roll = rng.next();
  if (roll < 0.03) return ['terminated', rng.pick(admins).email];
  if (roll < 0.045) return ['recovered', null];
  if (roll < 0.06) return ['server-stopped', null];
  if (type !== 'ssh') return ['closed', null];
  return roll < 0.1 ? ['host-disconnected', null] : ['client-closed', null];
}

/** A start time in the last 30 days, shaped by weekdays and office hours. */
function startTime(rng: Prng, now: number): number {
  for (;;) {
    const at = now - rng.next() * DAYS * DAY;
    const when = new Date(at);
    const weekend = when.getDay() === 0 || when.getDay() === 6 ? 0.25 : 1;
    if (rng.next() * 1.4 < (HOURLY[when.getHours()] ?? 0) * weekend) return at;
  }
}

/**
 * About 500 sessions over the last 30 days, newest first: SSH mostly, RDP, generic and agent
 * tunnels; eight still live, two of them for more than a day.
 */
/** What an SSH session's first channel was, by its place in the list: mostly shells. */
function channelKind(ssh: boolean, index: number): Pick<MockRecording, 'kind' | 'command'> {
  if (!ssh) return { kind: null, command: null };
  switch (index % 9) {
    case 4:
      return { kind: 'exec', command: 'systemctl status nginx --no-pager' };
    case 5:
      return { kind: 'sftp', command: null };
    case 6:
      return { kind: 'scp', command: 'scp -t /var/backups/db-2026.sql.gz' };
    case 7:
      return { kind: 'scp', command: 'scp -f /var/log/app/audit.log' };
    default:
      return { kind: 'shell', command: null };
  }
}

export function generateRecordings(
  rng: Prng,
  now: number,
  world: { tunnels: MockTunnel[]; agents: MockAgent[]; users: MockUser[]; groups: MockGroup[] },
  count = 500,
): MockRecording[] {
  const { tunnels, agents, users, groups } = world;
  const admins = users.filter((user) => user.roles.includes('admin'));
  const total = tunnels.reduce((sum, t) => sum + WEIGHTS[t.type], 0);
  const pickTunnel = () => {
    let roll = rng.next() * total;
    for (const tunnel of tunnels) if ((roll -= WEIGHTS[tunnel.type]) < 0) return tunnel;
    return rng.pick(tunnels);
  };
  const liveStarts = [now - 52 * HOUR, now - 27 * HOUR, now - 3 * HOUR, now - 70 * 60_000, now - 25 * 60_000];
  return Array.from({ length: count }, (_, index): MockRecording => {
    const tunnel = index < 8 ? rng.pick(tunnels.filter((t) => t.type === (index < 6 ? 'ssh' : 'rdp'))) : pickTunnel();
    const live = index < 8;
    // Whole seconds, as the gateway stamps them.
    const started = Math.floor((live ? (liveStarts[index] ?? now - rng.int(2, 50) * 60_000) : startTime(rng, now)) / 1000) * 1000;
    const seconds = live ? 0 : Math.min(duration(rng, tunnel.type), Math.floor((now - started) / 1000) - 1);
    const [endReason, terminatedBy] = live ? [null, null] : ending(rng, tunnel.type, admins);
    const user = rng.pick(usersOf(tunnel, users, groups));
    const [width, height] = tunnel.type === 'ssh' ? rng.pick(SIZES) : [80, 24];
    const hostname = agents.find((a) => a.id === tunnel.host_id)?.hostname ?? 'unknown';
    return {
      id: rng.uuid(),
      host: { id: tunnel.host_id, hostname },
      user: { email: user.email },
      started_on: new Date(started).toISOString(),
      ended_on: live ? null : new Date(started + Math.max(1, seconds) * 1000).toISOString(),
      has_video: false,
      type: tunnel.type,
      tunnel: tunnel.name,
      end_reason: endReason,
      terminated_by: terminatedBy,
      // Some sessions on definitions that allow it forwarded a port (ssh -L); no draw, so the rest stays as seeded.
      forwards: tunnel.allow_port_forwarding && index % 3 === 1 ? [`${hostname}:5432`] : [],
      // A few finished sessions on legal hold (no draw, so the rest stays as seeded).
      legal_hold:
        !live && index % 37 === 11
          ? {
              held: true,
              by: admins[0]?.email ?? 'admin@gatehouse.local',
              at: new Date(started + 86_400_000).toISOString(),
              reason: `Case ${String(2026_000 + index)}: preserve for review`,
            }
          : { held: false, by: null, at: null, reason: null },
      // SSH sessions of every kind (no draw, so the rest stays as seeded).
      ...channelKind(tunnel.type === 'ssh', index),
      width,
      height,
      login: tunnel.ssh_login ?? 'user',
      tunnel_id: tunnel.id,
      user_id: user.id,
    };
  }).sort((a, b) => b.started_on.localeCompare(a.started_on));
}
