import { getDashboard } from '@gatehouse/contracts';
import { describe, expect, it } from 'vitest';
import { dashboardFeature } from './feature';

describe('the dashboard route', () => {
  it('needs exactly what its call needs, so nobody opens it to a 403 (issue 20)', () => {
    expect(getDashboard.access.kind).toBe('permissions');
    const needed = getDashboard.access.kind === 'permissions' ? [...getDashboard.access.anyOf] : [];
    expect([...(dashboardFeature.routes[0]?.permissions ?? [])].sort()).toEqual(needed.sort());
  });
});
