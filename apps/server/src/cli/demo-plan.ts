import { type Rng, pick } from './demo-rng.js';

/** Who uses which demo tunnel definition, and how often (weights are relative). */
export interface Profile {
  definition: string;
  type: 'ssh' | 'rdp' | 'generic' | 'agent';
  /** ssh: the login on the host; tunnels: host:port of the target. */
  login: string;
  users: string[];
  weight: number;
}

const at = (name: string) => `${name}@demo.gatehouse.test`;

/** The demo's traffic: mostly SSH to the web and database servers, some RDP to the design desktop. */
export const PROFILES: Profile[] = [
  {
    definition: 'web-01 deploy shell',
    type: 'ssh',
    login: 'deploy',
    users: [at('bruno.silva'), at('chen.wei')],
    weight: 34,
  },
  { definition: 'web-02 ops shell', type: 'ssh', login: 'ops', users: [at('bruno.silva'), at('chen.wei')], weight: 22 },
  { definition: 'db-01 admin shell', type: 'ssh', login: 'dba', users: [at('chen.wei')], weight: 20 },
  { definition: 'mac-build-02 shell', type: 'ssh', login: 'builder', users: [at('bruno.silva')], weight: 8 },
  { definition: 'Design workstation', type: 'rdp', login: 'win-desktop-07:3389', users: [at('grace.kim')], weight: 9 },
  { definition: 'Orders database', type: 'generic', login: 'db-01.prod:5432', users: [at('chen.wei')], weight: 5 },
  { definition: 'Backups to db-01', type: 'agent', login: 'db-01.prod:5432', users: [at('alice.martin')], weight: 2 },
];

/** One session to write: where, who, when, for how long, and how it ended (null while live). */
export interface PlannedSession {
  profile: Profile;
  userEmail: string;
  startedOn: Date;
  durationSeconds: number;
  live: boolean;
  /** 'follow': a day-long `journalctl -f`; otherwise an interactive shell or tunnel traffic. */
  kind: 'shell' | 'follow' | 'tunnel';
  endReason: string | null;
  terminatedBy: string | null;
  width: number;
  height: number;
  term: string;
}

const DAYS = 90;
const HOUR = 3600_000;
/** Relative activity per UTC hour: office hours with a lunch dip, a little on-call at night. */
const HOURLY = [
  0.05, 0.04, 0.04, 0.04, 0.05, 0.08, 0.2, 0.5, 1, 1.3, 1.4, 1.3, 0.9, 1.2, 1.4, 1.3, 1.1, 0.7, 0.4, 0.25, 0.2, 0.15,
  0.1, 0.07,
];
const SIZES: [number, number][] = [
  [80, 24],
  [120, 40],
  [160, 48],
  [200, 55],
  [100, 30],
];

function normal(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
}

/** Log-normal around a median, clamped: most sessions are short, a few last hours. */
function duration(rng: Rng, type: Profile['type']): number {
  const [median, spread, min, max] =
    type === 'ssh' ? [300, 1, 8, 4 * 3600] : type === 'rdp' ? [1500, 0.8, 60, 8 * 3600] : [600, 1.2, 5, 6 * 3600];
  return Math.min(max, Math.max(min, median * Math.exp(spread * normal(rng))));
}

function ending(rng: Rng, type: Profile['type']): [string, string | null] {
  const roll = rng();
  if (roll < 0.03) return ['terminated', pick(rng, [at('alice.martin'), at('bruno.silva')])];
  if (roll < 0.05) return ['recovered', null];
  if (roll < 0.065) return ['server-stopped', null];
  if (type !== 'ssh') return ['closed', null];
  return roll < 0.1 ? ['host-disconnected', null] : ['client-closed', null];
}

function session(
  rng: Rng,
  profile: Profile,
  startedOn: Date,
  seconds: number,
  live: boolean,
  kind: PlannedSession['kind'],
) {
  const [endReason, terminatedBy] = live ? [null, null] : ending(rng, profile.type);
  const [width, height] = profile.type === 'ssh' ? pick(rng, SIZES) : [80, 24];
  return {
    profile,
    userEmail: pick(rng, profile.users),
    startedOn,
    durationSeconds: seconds,
    live,
    kind: profile.type === 'ssh' ? kind : 'tunnel',
    endReason: kind === 'follow' && !live ? 'client-closed' : endReason,
    terminatedBy: kind === 'follow' ? null : terminatedBy,
    width,
    height,
    term: rng() < 0.85 ? 'xterm-256color' : pick(rng, ['screen-256color', 'xterm', 'tmux-256color']),
  } satisfies PlannedSession;
}

/** Hourly weights of the last 90 days: office hours, quiet weekends, a slow rise, a few busy days. */
function hourWeights(rng: Rng, now: number): { start: number; cumulative: number[] } {
  const start = Math.floor(now / HOUR) * HOUR - (DAYS * 24 - 1) * HOUR;
  const cumulative: number[] = [];
  let total = 0;
  let dayFactor = 1;
  for (let slot = 0; slot < DAYS * 24; slot += 1) {
    const when = new Date(start + slot * HOUR);
    if (slot === 0 || when.getUTCHours() === 0) dayFactor = (0.8 + rng() * 0.4) * (rng() < 0.04 ? 2.2 : 1);
    const weekend = when.getUTCDay() === 0 || when.getUTCDay() === 6 ? 0.2 : 1;
    const trend = 0.7 + (0.3 * slot) / (DAYS * 24);
    const elapsed = Math.min(1, Math.max(0, (now - when.getTime()) / HOUR));
    total += (HOURLY[when.getUTCHours()] ?? 0) * weekend * trend * dayFactor * elapsed;
    cumulative.push(total);
  }
  return { start, cumulative };
}

function weightedProfile(rng: Rng): Profile {
  let roll = rng() * PROFILES.reduce((sum, p) => sum + p.weight, 0);
  for (const profile of PROFILES) {
    roll -= profile.weight;
    if (roll < 0) return profile;
  }
  return PROFILES[0] as Profile;
}

/**
 * `count` sessions over the last 90 days, oldest first: three live for more than a day, three
 * finished after more than a day (both print a line a minute), the rest with the daily and
 * hourly shape of a team at work; those still running now are live (at least six).
 */
export function planSessions(rng: Rng, count: number, now = Date.now()): PlannedSession[] {
  const shells = PROFILES.filter((p) => p.type === 'ssh');
  const special: PlannedSession[] = [];
  const long: [hoursAgo: number, hours: number, live: boolean][] = [
    [75, 75, true],
    [50, 50, true],
    [26.5, 26.5, true],
    [20 * 24, 30, false],
    [9 * 24, 27.5, false],
    [4 * 24, 25, false],
  ];
  for (const [index, [hoursAgo, hours, live]] of long.slice(0, Math.max(0, count - 1)).entries()) {
    const startedOn = new Date(now - hoursAgo * HOUR - rng() * 600_000);
    const seconds = live ? (now - startedOn.getTime()) / 1000 : hours * 3600;
    special.push(session(rng, shells[index % shells.length] as Profile, startedOn, seconds, live, 'follow'));
  }
  const { start, cumulative } = hourWeights(rng, now);
  const total = cumulative.at(-1) ?? 1;
  const regular: PlannedSession[] = [];
  for (let i = special.length; i < count; i += 1) {
    const target = rng() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((cumulative[mid] ?? 0) < target) low = mid + 1;
      else high = mid;
    }
    const startedAt = Math.min(now - 5000, start + low * HOUR + rng() * HOUR);
    // Every kind of session shows up, however few are asked for.
    const profile = PROFILES[i - special.length] ?? weightedProfile(rng);
    const seconds = duration(rng, profile.type);
    const live = startedAt + seconds * 1000 > now;
    const planned = session(rng, profile, new Date(startedAt), seconds, live, 'shell');
    regular.push(live ? { ...planned, durationSeconds: (now - startedAt) / 1000 } : planned);
  }
  regular.sort((a, b) => a.startedOn.getTime() - b.startedOn.getTime());
  // A few sessions are always running when the demo is looked at: the latest ones become
  // sessions opened in the last hour and a half that are still open.
  let liveNow = regular.filter((s) => s.live).length;
  for (let i = regular.length - 1; i >= 0 && liveNow < 6; i -= 1) {
    const planned = regular[i];
    if (!planned || planned.live) continue;
    const startedOn = new Date(now - 60_000 - rng() * 90 * 60_000);
    const seconds = (now - startedOn.getTime()) / 1000;
    Object.assign(planned, { live: true, endReason: null, terminatedBy: null, startedOn, durationSeconds: seconds });
    liveNow += 1;
  }
  return [...special, ...regular].sort((a, b) => a.startedOn.getTime() - b.startedOn.getTime());
}
