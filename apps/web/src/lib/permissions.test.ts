import { describe, expect, it } from 'vitest';
import { hasPermission, isAdmin } from './permissions';

const listHostOnly = { roles: [{ name: 'operator' }], effectivePermissions: ['list-host'] };

describe('hasPermission (spec §5)', () => {
  it('allows a route that requires nothing', () => {
    expect(hasPermission(listHostOnly, [])).toBe(true);
    expect(hasPermission(listHostOnly, undefined)).toBe(true);
  });

  it('allows when one of the listed permissions is held', () => {
    expect(hasPermission(listHostOnly, ['manage-kubernetes', 'list-host'])).toBe(true);
  });

  it('refuses a user lacking every listed permission', () => {
    expect(hasPermission(listHostOnly, ['list-recording'])).toBe(false);
  });

  it('falls back to role names when the user has no permissions', () => {
    const roleOnly = { roles: [{ name: 'list-group' }], effectivePermissions: [] };
    expect(hasPermission(roleOnly, ['list-group'])).toBe(true);
    expect(hasPermission(roleOnly, ['list-host'])).toBe(false);
  });

  it('allows a user with neither permissions nor roles, and no user at all', () => {
    expect(hasPermission({ roles: [], effectivePermissions: [] }, ['list-host'])).toBe(true);
    expect(hasPermission(null, ['list-host'])).toBe(true);
  });
});

describe('isAdmin', () => {
  it('is true only for holders of the admin role, whatever permissions others hold', () => {
    expect(isAdmin({ roles: [{ name: 'user' }, { name: 'admin' }] })).toBe(true);
    expect(isAdmin({ roles: [{ name: 'administrators' }] })).toBe(false);
    expect(isAdmin(listHostOnly)).toBe(false);
    expect(isAdmin(null)).toBe(false);
  });
});
