import { describe, expect, it } from 'vitest';
import { readAuditFilters } from '../components/use-audit-filters';
import { NO_FILTERS, filterQuery } from './list-audit';

describe('audit filters', () => {
  it('sends only what is chosen, text trimmed, local times as instants', () => {
    const query = filterQuery({
      ...NO_FILTERS,
      q: '  needle ',
      actor: '',
      outcome: 'denied',
      from: '2030-03-01T10:15',
      to: 'not a time',
    });
    expect(query).toEqual({
      q: 'needle',
      actor: undefined,
      action: undefined,
      outcome: 'denied',
      target: undefined,
      from: new Date('2030-03-01T10:15').toISOString(),
      to: undefined,
      order: undefined,
    });
    expect(filterQuery({ ...NO_FILTERS, order: 'asc' }).order).toBe('asc');
  });

  it('reads the URL, falling back to any for values it does not know', () => {
    const filters = readAuditFilters(new URLSearchParams('outcome=maybe&order=sideways&actor=alice&action=auth.login'));
    expect(filters).toEqual({ ...NO_FILTERS, actor: 'alice', action: 'auth.login' });
    expect(readAuditFilters(new URLSearchParams('outcome=failure&order=asc'))).toMatchObject({
      outcome: 'failure',
      order: 'asc',
    });
  });
});
