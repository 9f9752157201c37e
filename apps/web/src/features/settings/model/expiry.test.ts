import { describe, expect, it } from 'vitest';
import { daysUntil, expiryNotice, licenseDays } from './expiry';

const NOW = Date.parse('2026-03-10T12:00:00Z');

describe('expiryNotice', () => {
  it('says nothing above 30 days or without an expiry', () => {
    expect(expiryNotice(31)).toBeNull();
    expect(expiryNotice(365)).toBeNull();
    expect(expiryNotice(null)).toBeNull();
  });

  it('warns from 30 down to 4 days', () => {
    expect(expiryNotice(30)).toEqual({ severity: 'warning', expired: false, days: 30 });
    expect(expiryNotice(4)).toEqual({ severity: 'warning', expired: false, days: 4 });
  });

  it('is an error from 3 days down to 0, and an expired error below 0', () => {
    expect(expiryNotice(3)).toEqual({ severity: 'error', expired: false, days: 3 });
    expect(expiryNotice(0)).toEqual({ severity: 'error', expired: false, days: 0 });
    expect(expiryNotice(-1)).toEqual({ severity: 'error', expired: true, days: -1 });
  });
});

describe('daysUntil', () => {
  it('counts whole days left, rounded down, negative once past', () => {
    expect(daysUntil('2026-03-20T12:00:00Z', NOW)).toBe(10);
    expect(daysUntil('2026-03-20T11:59:59Z', NOW)).toBe(9);
    expect(daysUntil('2026-03-10T13:00:00Z', NOW)).toBe(0);
    expect(daysUntil('2026-03-10T11:00:00Z', NOW)).toBe(-1);
  });

  it('gives null for a missing licence', () => {
    expect(licenseDays({ expires: null }, NOW)).toBeNull();
    expect(licenseDays({ expires: '2026-04-10T12:00:00Z' }, NOW)).toBe(31);
  });
});
