import { ADMIN_ROLE, PERMISSIONS, type Permission, USER_ROLE } from '@gatehouse/contracts';
import type { Prng } from '../prng';
import type { MockGroup, MockRole, MockUser } from '../types';

const DAY = 86_400_000;

/** The mock organisation's mail domain (a reserved example name: nobody can own it). */
export const MOCK_DOMAIN = 'acme.example';

const PEOPLE = [
  'Alice Martin',
  'Bruno Silva',
  'Chen Wei',
  'Dalia Haddad',
  'Emma Rossi',
  'Farid Nasser',
  'Grace Kim',
  'Hiroshi Tanaka',
  'Ingrid Larsen',
  'Javier Morales',
  'Kavya Iyer',
  'Lucas Dubois',
  'Mei Lin',
  'Nadia Benali',
  'Oliver Wright',
  'Priya Sharma',
  'Quentin Moreau',
  'Rosa García',
  'Samuel Okafor',
  'Tomás Novak',
  'Uma Patel',
  'Viktor Petrov',
  'Wen Zhao',
  'Ximena Ruiz',
  'Yusuf Demir',
  'Zoe Fischer',
  'Amara Diallo',
  'Ben Cohen',
  'Carla Bianchi',
  'Daniel Park',
  'Elif Yılmaz',
  'Fatima Zahra',
  'Giulia Conti',
  'Hugo Lefèvre',
  'Isabel Costa',
  'Jonas Weber',
  'Leila Karimi',
  'Marco Ferrari',
] as const;

/** Roles a small operations team would set up, besides the built-in admin and user. */
const ROLES: Record<string, Permission[]> = {
  operator: [
    'list-recording',
    'list-host',
    'list-group',
    'list-all-tunnel-definitions',
    'create-tunnel',
    'modify-agent-config',
    'terminate-session',
  ],
  auditor: ['list-recording', 'list-host', 'list-audit-log', 'list-user'],
  'host-viewer': ['list-host'],
  'identity-admin': ['list-user', 'list-user-role', 'list-group', 'create-role', 'modify-role', 'modify-user-role'],
  dba: ['list-host', 'list-recording', 'create-tunnel'],
  'security-officer': ['list-recording', 'list-audit-log', 'manage-sso-config', 'manage-settings', 'terminate-session'],
};

function emailOf(name: string): string {
  const ascii = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i')
    .toLowerCase();
  return `${ascii.replace(/\s+/g, '.')}@${MOCK_DOMAIN}`;
}

/** The built-in roles and the team's roles. */
export function generateRoles(): MockRole[] {
  return [
    { name: ADMIN_ROLE, permissions: [...PERMISSIONS], builtin: true },
    { name: USER_ROLE, permissions: [], builtin: true },
    ...Object.entries(ROLES).map(([name, permissions]) => ({ name, permissions, builtin: false })),
  ];
}

/** 40 people (the first three administrators), each holding user plus one or two roles. */
export function generateUsers(rng: Prng, now: number): MockUser[] {
  const teamRoles = Object.keys(ROLES);
  const named: MockUser[] = PEOPLE.map((name, index) => {
    const extra = index < 3 ? [ADMIN_ROLE] : rng.chance(0.8) ? rng.sample(teamRoles, rng.int(1, 2)) : [];
    return {
      id: rng.uuid(),
      email: emailOf(name),
      name,
      roles: [...extra, USER_ROLE],
      created_at: new Date(now - (400 - index * 9) * DAY - rng.int(0, 8 * 3600) * 1000).toISOString(),
    };
  });
  // Accounts without a display name exist too (created by email only).
  const unnamed = ['svc-backup', 'oncall'].map((login, index) => ({
    id: rng.uuid(),
    email: `${login}@${MOCK_DOMAIN}`,
    name: null,
    roles: index === 0 ? ['operator', USER_ROLE] : [USER_ROLE],
    created_at: new Date(now - (30 - index * 10) * DAY).toISOString(),
  }));
  return [...named, ...unnamed];
}

/** Teams as nested groups: Platform holds SRE and Database admins, and so on. */
export function generateGroups(rng: Prng, users: MockUser[], now: number): MockGroup[] {
  const emails = users.map((user) => user.email);
  const group = (name: string, members: number, groups: string[] = []): MockGroup => ({
    name,
    users: rng.sample(emails, members),
    agents: [],
    groups,
    created_at: new Date(now - rng.int(40, 380) * DAY).toISOString(),
  });
  return [
    group('Auditors', 3),
    group('Build farm', 4),
    group('Contractors', 5),
    group('Database admins', 4),
    group('On-call', 6),
    group('Platform', 3, ['SRE', 'Database admins']),
    group('SRE', 7),
    group('Windows desktops', 6),
  ];
}
