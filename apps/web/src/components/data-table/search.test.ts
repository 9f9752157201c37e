import { describe, expect, it } from 'vitest';
import { filterRows, matchesSearch, normaliseSearch } from './search';

describe('table search', () => {
  it('ignores case, accents and extra spaces', () => {
    expect(normaliseSearch('  Émma   ROSSI ')).toBe('emma rossi');
    expect(matchesSearch('emma', ['Émma Rossi'])).toBe(true);
  });

  it('needs every word, each in any of the texts', () => {
    expect(matchesSearch('ops list-host', ['ops-team', 'list-host, list-group'])).toBe(true);
    expect(matchesSearch('ops manage', ['ops-team', 'list-host'])).toBe(false);
  });

  it('matches everything on an empty query and keeps the order of rows', () => {
    const rows = [{ n: 'b' }, { n: 'a' }, { n: 'ab' }];
    expect(filterRows(rows, ' ', (r) => [r.n])).toEqual(rows);
    expect(filterRows(rows, 'A', (r) => [r.n]).map((r) => r.n)).toEqual(['a', 'ab']);
  });
});
