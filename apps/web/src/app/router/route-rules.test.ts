import { PERMISSIONS } from '@gatehouse/contracts';
import { describe, expect, it } from 'vitest';
import { deniedPath, isAuthOrErrorPath, signedInStartPath } from './route-rules';

const admin = { roles: [{ name: 'admin' }], effectivePermissions: [...PERMISSIONS] };
const hostLister = { roles: [{ name: 'operator' }], effectivePermissions: ['list-host'] };
const plain = { roles: [{ name: 'user' }], effectivePermissions: ['create-tunnel'] };

describe('routing rules (spec §2.4)', () => {
  it('starts on /recordings, or /hostsDashboard without list-recording', () => {
    expect(signedInStartPath(admin, null)).toBe('/recordings');
    expect(signedInStartPath(hostLister, null)).toBe('/hostsDashboard');
  });

  it('returns to a remembered path only when it is permitted', () => {
    expect(signedInStartPath(admin, '/groups')).toBe('/groups');
    expect(signedInStartPath(hostLister, '/groups')).toBe('/hostsDashboard');
    expect(signedInStartPath(hostLister, '/hosts?theme_mode=light')).toBe('/hosts?theme_mode=light');
  });

  it('never returns to auth or error paths', () => {
    expect(isAuthOrErrorPath('/signin')).toBe(true);
    expect(isAuthOrErrorPath('/error-pages/error-404')).toBe(true);
    expect(signedInStartPath(admin, '/signout')).toBe('/recordings');
  });

  it('sends a user without the route permission to the fallback page', () => {
    expect(deniedPath(hostLister)).toBe('/hostsDashboard');
  });

  it('starts and lands a plain user on My access, never on a dashboard they may not load (issue 20)', () => {
    expect(signedInStartPath(plain, null)).toBe('/access');
    expect(signedInStartPath(plain, '/hostsDashboard')).toBe('/access');
    expect(signedInStartPath(plain, '/access')).toBe('/access');
    expect(deniedPath(plain)).toBe('/access');
  });
});
