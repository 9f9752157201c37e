import { PERMISSIONS } from '@gatehouse/contracts';
import { describe, expect, it } from 'vitest';
import { NAV_ENTRIES, isEntryActive, visibleNavEntries } from './navigation';

const admin = { roles: [{ name: 'admin' }, { name: 'user' }], effectivePermissions: [...PERMISSIONS] };
const hostLister = { roles: [{ name: 'operator' }], effectivePermissions: ['list-host'] };
const paths = (user: typeof admin | typeof hostLister) => visibleNavEntries(user).map((entry) => entry.path);

describe('main navigation (spec §2.3)', () => {
  it('shows an admin My access, the ten entries of spec §2.3 and Audit, in order', () => {
    expect(paths(admin)).toEqual([
      '/access',
      '/systemStatus',
      '/recordings',
      '/hostsDashboard',
      '/groups',
      '/hosts',
      '/roles',
      '/tunnels',
      '/users',
      '/registrationKeys',
      '/audit',
      '/settings',
    ]);
  });

  it('shows a list-host-only user My access, Dashboard, Agents and Users', () => {
    expect(visibleNavEntries(hostLister).map((entry) => entry.messageId)).toEqual([
      'nav.myAccess',
      'nav.dashboard',
      'nav.agents',
      'nav.users',
    ]);
  });

  it('shows a plain user (the built-in user role) My access and Users', () => {
    const plain = { roles: [{ name: 'user' }], effectivePermissions: ['create-tunnel'] };
    expect(visibleNavEntries(plain).map((entry) => entry.path)).toEqual(['/access', '/users']);
  });

  it('marks Sessions current on its alias paths and Dashboard on either spelling', () => {
    const byId = (id: string) => NAV_ENTRIES.find((entry) => entry.id === id)!;
    expect(isEntryActive(byId('sessions'), '/sessions')).toBe(true);
    expect(isEntryActive(byId('sessions'), '/recordings/sessions')).toBe(true);
    expect(isEntryActive(byId('dashboard'), '/hostsdashboard')).toBe(true);
    expect(isEntryActive(byId('users'), '/groups')).toBe(false);
  });
});
