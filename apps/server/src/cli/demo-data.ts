import type { Permission } from '@gatehouse/contracts';
import type { Services } from '../services.js';
import { seedInfrastructure } from './demo-infrastructure.js';
import { type DemoRecordingOptions, seedRecordings } from './demo-recordings.js';

/** The password every demo account gets; printed by the command, never used outside demos. */
export const DEMO_PASSWORD = 'Gatehouse-demo-1';

/** Roles a small operations team would set up. */
const DEMO_ROLES: Record<string, Permission[]> = {
  operator: [
    'list-recording',
    'list-host',
    'list-group',
    'list-all-tunnel-definitions',
    'create-tunnel',
    'modify-agent-config',
  ],
  auditor: ['list-recording', 'list-host', 'list-audit-log', 'list-user'],
  'host-viewer': ['list-host'],
  'identity-admin': ['list-user', 'list-user-role', 'list-group', 'create-role', 'modify-role', 'modify-user-role'],
};

/** People of the demo organisation and their roles. */
const DEMO_USERS: { email: string; name: string; roles: string[] }[] = [
  { email: 'alice.martin@demo.gatehouse.test', name: 'Alice Martin', roles: ['admin', 'user'] },
  { email: 'bruno.silva@demo.gatehouse.test', name: 'Bruno Silva', roles: ['operator', 'user'] },
  { email: 'chen.wei@demo.gatehouse.test', name: 'Chen Wei', roles: ['operator', 'user'] },
  { email: 'dalia.haddad@demo.gatehouse.test', name: 'Dalia Haddad', roles: ['auditor', 'user'] },
  { email: 'emma.rossi@demo.gatehouse.test', name: 'Emma Rossi', roles: ['identity-admin', 'user'] },
  { email: 'farid.nasser@demo.gatehouse.test', name: 'Farid Nasser', roles: ['host-viewer', 'user'] },
  { email: 'grace.kim@demo.gatehouse.test', name: 'Grace Kim', roles: ['user'] },
];

/**
 * Creates the demo roles, users, infrastructure and, when `recordings` is given, recorded sessions
 * that are missing; safe to run again. Returns lines to print.
 */
export async function seedDemo(services: Services, recordings?: DemoRecordingOptions): Promise<string[]> {
  const { roles, users } = services.repositories;
  for (const [name, permissions] of Object.entries(DEMO_ROLES)) await roles.ensure(name, permissions, false);
  const created: string[] = [];
  for (const person of DEMO_USERS) {
    if (await users.findByEmail(person.email)) continue;
    await services.usersService.create(
      { email: person.email, name: person.name, password: DEMO_PASSWORD },
      person.roles,
    );
    created.push(person.email);
  }
  const infrastructure = await seedInfrastructure(services);
  const sessions = recordings ? await seedRecordings(services, recordings) : [];
  return [
    ...infrastructure,
    ...sessions,
    `Demo roles: ${Object.keys(DEMO_ROLES).join(', ')}.`,
    created.length > 0 ? `Demo users created: ${created.length}.` : 'Demo users were already there.',
    ...DEMO_USERS.map((u) => `  ${u.email.padEnd(36)} ${u.roles.join(', ')}`),
    `Every demo user signs in with the password ${DEMO_PASSWORD}`,
  ];
}
