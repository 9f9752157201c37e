import { PERMISSIONS } from '@gatehouse/contracts';
import { describe, expect, it } from 'vitest';
import { groupByArea, permissionArea, sortByArea } from './permission-areas';

describe('permission areas', () => {
  it('places every permission of the catalogue in a named area', () => {
    expect(PERMISSIONS.filter((p) => permissionArea(p) === 'other')).toEqual([]);
  });

  it('puts an unknown permission under other', () => {
    expect(permissionArea('launch-rockets')).toBe('other');
    expect(permissionArea('toString')).toBe('other');
  });

  it('groups by area in display order and leaves empty areas out', () => {
    expect(groupByArea(['manage-license', 'list-group', 'list-recording', 'modify-group'])).toEqual([
      { area: 'sessions', permissions: ['list-recording'] },
      { area: 'identity', permissions: ['list-group', 'modify-group'] },
      { area: 'system', permissions: ['manage-license'] },
    ]);
  });

  it('sorts by area and keeps the order inside an area', () => {
    expect(sortByArea(['modify-role', 'list-host', 'create-role'])).toEqual([
      'list-host',
      'modify-role',
      'create-role',
    ]);
  });
});
