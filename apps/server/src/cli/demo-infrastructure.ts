import { ADMIN_ROLE, PERMISSIONS } from '@gatehouse/contracts';
import { toPrincipal } from '../modules/auth/principal.js';
import type { Services } from '../services.js';

/** The seeder acts as an administrator would (the policy's grant guards let the admin role pass). */
const SEEDER = toPrincipal(
  { id: '00000000-0000-0000-0000-000000000000', email: 'demo-seeder', name: null },
  [{ name: ADMIN_ROLE, permissions: [...PERMISSIONS] }],
  '',
  new Date(8.64e15),
);

/** Groups of the demo organisation: [name, members, child groups]. */
const GROUPS: [string, string[], string[]][] = [
  ['Platform', ['bruno.silva@demo.gatehouse.test'], ['Database admins', 'On-call']],
  ['Database admins', ['chen.wei@demo.gatehouse.test'], []],
  ['On-call', ['bruno.silva@demo.gatehouse.test', 'chen.wei@demo.gatehouse.test'], []],
  ['Contractors', ['grace.kim@demo.gatehouse.test'], []],
];

/** Hosts of the demo fleet: [hostname, os]. They are enrolled but no agent runs, so they show disconnected. */
const HOSTS: [string, 1 | 2 | 3][] = [
  ['web-01.prod', 1],
  ['web-02.prod', 1],
  ['db-01.prod', 1],
  ['win-desktop-07', 2],
  ['mac-build-02', 3],
];

/**
 * Registration keys, enrolled hosts, groups and tunnel definitions, created through the real
 * services (the same calls the API makes). Safe to run again.
 */
export async function seedInfrastructure(s: Services): Promise<string[]> {
  const existingGroups = new Set((await s.groups.list()).groups.map((g) => g.name));
  for (const [name] of GROUPS) if (!existingGroups.has(name)) await s.groups.create(name);
  for (const [name, members, children] of GROUPS) {
    const group = (await s.groups.list()).groups.find((g) => g.name === name);
    const newMembers = members.filter((m) => !group?.users.includes(m));
    if (newMembers.length > 0) await s.groups.addUsers(SEEDER, name, newMembers);
    const newChildren = children.filter((c) => !group?.groups.includes(c));
    if (newChildren.length > 0) await s.groups.addChildren(SEEDER, name, newChildren);
  }

  const known = new Map((await s.repositories.agents.list()).map((a) => [a.hostname, a.id]));
  const lines: string[] = [];
  const missing = HOSTS.filter(([hostname]) => !known.has(hostname));
  if (missing.length > 0) {
    // A key made for the enrolment and deleted after it, as an administrator would.
    const key = await s.apiKeys.create('alice.martin@demo.gatehouse.test', 'Demo fleet enrolment', {
      hours: 1,
      uses: missing.length,
    });
    for (const [hostname, os] of missing) {
      known.set(hostname, (await s.agents.register({ key: key.key, hostname, os, version: '2.0.0' }, 'demo')).id);
    }
    await s.apiKeys.delete(key.uuid);
  }
  lines.push(
    `Demo hosts: ${HOSTS.map((h) => h[0]).join(', ')} (enrolled, no agent runs for them: they show disconnected).`,
  );
  if ((await s.apiKeys.list()).keys.length === 0) {
    await s.apiKeys.create('alice.martin@demo.gatehouse.test', 'Linux servers', { hours: 168, uses: 20 });
    await s.apiKeys.create('alice.martin@demo.gatehouse.test', 'Windows desktops', { hours: 24, uses: 1 });
  }
  const web = known.get('web-01.prod');
  const win = known.get('win-desktop-07');
  const db = known.get('db-01.prod');
  const web2 = known.get('web-02.prod');
  const mac = known.get('mac-build-02');
  if (web && win && db && web2 && mac) {
    const all = await s.tunnels.listAll();
    const names = new Set([...all.ssh, ...all.rdp, ...all.generic, ...all.agent].map((d) => d.name));
    const wanted: [Parameters<Services['tunnels']['create']>[1], Parameters<Services['tunnels']['create']>[2]][] = [
      ['ssh', { name: 'web-01 deploy shell', host_id: web, ssh_login: 'deploy', group: 'Platform' }],
      ['ssh', { name: 'web-02 ops shell', host_id: web2, ssh_login: 'ops', group: 'On-call' }],
      ['ssh', { name: 'db-01 admin shell', host_id: db, ssh_login: 'dba', group: 'Database admins' }],
      ['ssh', { name: 'mac-build-02 shell', host_id: mac, ssh_login: 'builder', group: 'Platform' }],
      ['rdp', { name: 'Design workstation', host_id: win, group: 'Contractors' }],
      ['generic', { name: 'Orders database', host_id: db, port: 5432, group: 'Database admins' }],
      ['agent', { name: 'Backups to db-01', host_id: db, port: 5432 }],
    ];
    for (const [type, fields] of wanted) if (!names.has(fields.name)) await s.tunnels.create(SEEDER, type, fields);
    lines.push(`Demo groups: ${GROUPS.map((g) => g[0]).join(', ')}; tunnel definitions: ${wanted.length}.`);
  }
  return lines;
}
