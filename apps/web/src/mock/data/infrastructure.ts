import { type Prng, base64 } from '../prng';
import type { HostConfig, MockAgent, MockApiKey, MockGroup, MockTunnel, MockUser } from '../types';

const DAY = 86_400_000;
const LINUX = 1;
const WINDOWS = 2;
const MAC = 3;

/** Hosts: [hostname, os, connected, groups it belongs to]. Five are disconnected. */
const HOSTS: [string, 1 | 2 | 3, boolean, string[]][] = [
  ['web-01.prod', LINUX, true, ['SRE']],
  ['web-02.prod', LINUX, true, ['SRE']],
  ['web-03.prod', LINUX, true, ['SRE']],
  ['api-01.prod', LINUX, true, ['SRE', 'On-call']],
  ['api-02.prod', LINUX, true, ['SRE', 'On-call']],
  ['db-01.prod', LINUX, true, ['Database admins']],
  ['db-02.prod', LINUX, true, ['Database admins']],
  ['cache-01.prod', LINUX, true, ['SRE']],
  ['queue-01.prod', LINUX, true, ['SRE']],
  ['bastion-01.dmz', LINUX, true, ['On-call']],
  ['vpn-01.dmz', LINUX, true, []],
  ['web-01.staging', LINUX, false, ['Contractors']],
  ['db-01.staging', LINUX, true, ['Contractors', 'Database admins']],
  ['ci-runner-01', LINUX, true, ['Build farm']],
  ['ci-runner-02', LINUX, false, ['Build farm']],
  ['log-01.ops', LINUX, false, ['SRE']],
  ['monitor-01.ops', LINUX, true, ['SRE', 'On-call']],
  ['win-desktop-07', WINDOWS, true, ['Windows desktops']],
  ['win-desktop-12', WINDOWS, false, ['Windows desktops']],
  ['win-ad-01', WINDOWS, true, []],
  ['win-sql-01', WINDOWS, true, ['Database admins']],
  ['win-jump-01', WINDOWS, true, ['Windows desktops', 'Contractors']],
  ['mac-build-01', MAC, true, ['Build farm']],
  ['mac-build-02', MAC, true, ['Build farm']],
  ['mac-mini-qa', MAC, false, ['Build farm']],
];

function config(rng: Prng, os: number): HostConfig {
  const windows = os === WINDOWS;
  return {
    loglevel: rng.pick(['ERROR', 'ERROR', 'WARNING', 'INFO'] as const),
    recording_enabled: windows,
    recording_fps: windows ? rng.pick([5, 10, 15]) : 5,
    recording_scale: windows ? rng.pick([1, 0.75, 0.5]) : 1,
    recording_bitrate: windows ? rng.pick(['2000k', '1500k', '3000k']) : '2000k',
    whitelist: windows ? [3389] : rng.pick([[], [22], [22, 5432], [22, 6379], [22, 3000, 9090]]),
  };
}

/** 25 enrolled hosts; each joins the groups HOSTS names. */
export function generateAgents(rng: Prng, groups: MockGroup[], now: number): MockAgent[] {
  return HOSTS.map(([hostname, os, connected, memberOf], index) => {
    const id = rng.uuid();
    for (const group of groups) if (memberOf.includes(group.name)) group.agents.push(id);
    const neverSeen = hostname === 'mac-mini-qa';
    return {
      id,
      hostname,
      os,
      version: neverSeen ? null : index % 7 === 3 ? '1.9.4' : '2.0.0',
      connected,
      state: connected ? 'connected' : 'disconnected',
      last_seen: neverSeen
        ? null
        : new Date(connected ? now - rng.int(1, 12) * 1000 : now - rng.int(2, 9 * 24) * 3_600_000).toISOString(),
      created_at: new Date(now - (300 - index * 7) * DAY).toISOString(),
      config: config(rng, os),
    };
  });
}

/** An OpenSSH Ed25519 public key line (a real key blob around random key bytes). */
export function ed25519PublicKey(rng: Prng, comment: string): string {
  const type = new TextEncoder().encode('ssh-ed25519');
  const blob = new Uint8Array([0, 0, 0, type.length, ...type, 0, 0, 0, 32, ...rng.bytes(32)]);
  return `ssh-ed25519 ${base64(blob)} ${comment}`;
}

/** Tunnel definitions: [type, name, hostname, port, login, auth, group, direct users]. */
const TUNNELS: [MockTunnel['type'], string, string, number, string | null, 'key' | 'password' | null, string | null, number][] = [
  ['ssh', 'web-01 deploy shell', 'web-01.prod', 22, 'deploy', 'key', 'SRE', 2],
  ['ssh', 'web-02 ops shell', 'web-02.prod', 22, 'ops', 'key', 'SRE', 0],
  ['ssh', 'api-01 app shell', 'api-01.prod', 22, 'app', 'key', 'On-call', 1],
  ['ssh', 'db-01 admin shell', 'db-01.prod', 22, 'dba', 'password', 'Database admins', 0],
  ['ssh', 'bastion jump', 'bastion-01.dmz', 22, 'jump', 'key', 'Platform', 0],
  ['ssh', 'staging db shell', 'db-01.staging', 22, 'postgres', 'password', 'Contractors', 1],
  ['ssh', 'mac-build-02 shell', 'mac-build-02', 22, 'builder', 'key', 'Build farm', 0],
  ['ssh', 'ci-runner-01 shell', 'ci-runner-01', 22, 'runner', 'key', 'Build farm', 0],
  ['rdp', 'Design workstation', 'win-desktop-07', 3389, null, null, 'Windows desktops', 1],
  ['rdp', 'AD console', 'win-ad-01', 3389, null, null, null, 2],
  ['rdp', 'Jump desktop', 'win-jump-01', 3389, null, null, 'Contractors', 0],
  ['generic', 'Orders database', 'db-01.prod', 5432, null, null, 'Database admins', 0],
  ['generic', 'Redis cache', 'cache-01.prod', 6379, null, null, 'SRE', 0],
  ['generic', 'Grafana', 'monitor-01.ops', 3000, null, null, 'On-call', 3],
  ['generic', 'SQL Server', 'win-sql-01', 1433, null, null, 'Database admins', 0],
  ['agent', 'Backups to db-01', 'db-01.prod', 5432, null, null, null, 1],
  ['agent', 'Metrics relay', 'monitor-01.ops', 9090, null, null, null, 0],
];

/** Tunnel definitions of every type over the hosts, admitted by group and some users directly. */
export function generateTunnels(rng: Prng, agents: MockAgent[], users: MockUser[], now: number): MockTunnel[] {
  const hostId = (hostname: string) => agents.find((agent) => agent.hostname === hostname)?.id ?? '';
  const userIds = users.map((user) => user.id);
  return TUNNELS.map(([type, name, hostname, port, login, auth, group, direct], index) => ({
    id: rng.uuid(),
    type,
    name,
    host_id: hostId(hostname),
    port,
    users: rng.sample(userIds, direct),
    group,
    agents: type === 'agent' ? [hostId(index % 2 === 0 ? 'log-01.ops' : 'ci-runner-01')] : [],
    ssh_login: login,
    ssh_auth: auth,
    public_key: auth === 'key' ? ed25519PublicKey(rng, `gatehouse-${name.replace(/\s+/g, '-')}`) : null,
    allow_port_forwarding: type === 'ssh' && rng.chance(0.3),
    created_at: new Date(now - (200 - index * 9) * DAY).toISOString(),
  }));
}

/** Keys: [description, created days ago, hours valid, uses, uses taken]. */
const KEYS: [string, number, number, number, number][] = [
  ['Production rollout', 120, 24 * 365, 50, 31],
  ['Staging hosts', 95, 24 * 365, 10, 10],
  ['Windows desktops (GPO)', 60, 24 * 90, 200, 42],
  ['CI runners', 21, 24 * 7, 5, 2],
  ['Lab machines', 3, 24 * 7, 3, 0],
];

/** Registration keys, newest first: some expired, one used up, one never used. */
export function generateApiKeys(rng: Prng, users: MockUser[], now: number): MockApiKey[] {
  return KEYS.map(([description, daysAgo, hours, uses, taken], index) => {
    const created = now - daysAgo * DAY;
    return {
      uuid: rng.uuid(),
      description,
      created: new Date(created).toISOString(),
      created_by: users[index % 3]?.email ?? null,
      last_used_at: taken === 0 ? null : new Date(now - rng.int(1, daysAgo) * DAY).toISOString(),
      expires_at: new Date(created + hours * 3_600_000).toISOString(),
      uses,
      uses_left: uses - taken,
    };
  }).reverse();
}
