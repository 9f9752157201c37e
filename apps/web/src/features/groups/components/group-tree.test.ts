import { describe, expect, it } from 'vitest';
import { nestingChoices, parentsOf } from './group-tree';

const groups = [
  { name: 'all-staff', groups: ['ops', 'dev'] },
  { name: 'dev', groups: [] },
  { name: 'ops', groups: ['oncall'] },
  { name: 'oncall', groups: [] },
];

describe('group nesting helpers', () => {
  it('finds the direct parents of a group', () => {
    expect(parentsOf(groups, 'ops')).toEqual(['all-staff']);
    expect(parentsOf(groups, 'all-staff')).toEqual([]);
  });

  it('offers every other group not nested already, cycles included', () => {
    expect(nestingChoices(groups, 'ops')).toEqual(['all-staff', 'dev']);
    expect(nestingChoices(groups, 'all-staff')).toEqual(['oncall']);
  });
});
