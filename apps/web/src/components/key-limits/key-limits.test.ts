import { describe, expect, it } from 'vitest';
import { defaultKeyLimits, keyStatus, parseKeyLimits } from './key-limits';

describe('parseKeyLimits', () => {
  it('defaults to the server’s limits: one agent within 24 hours', () => {
    expect(parseKeyLimits(defaultKeyLimits())).toEqual({ limits: { expires_in_hours: 24, uses: 1 } });
  });

  it('turns days into hours, up to a year', () => {
    expect(parseKeyLimits({ validFor: '7', unit: 'days', uses: '25' })).toEqual({
      limits: { expires_in_hours: 168, uses: 25 },
    });
    expect(parseKeyLimits({ validFor: '365', unit: 'days', uses: '1' })).toEqual({
      limits: { expires_in_hours: 8760, uses: 1 },
    });
    expect(parseKeyLimits({ validFor: '366', unit: 'days', uses: '1' })).toEqual({
      errors: { validFor: 'keyLimits.validForRange.days' },
    });
  });

  it('refuses what the contract refuses: zero, fractions, text, beyond the limits', () => {
    for (const validFor of ['0', '1.5', 'abc', '', '8761', '-3'])
      expect(parseKeyLimits({ validFor, unit: 'hours', uses: '1' }), validFor).toEqual({
        errors: { validFor: 'keyLimits.validForRange.hours' },
      });
    for (const uses of ['0', '2.5', '', '10001'])
      expect(parseKeyLimits({ validFor: '24', unit: 'hours', uses }), uses).toEqual({
        errors: { uses: 'keyLimits.usesRange' },
      });
    expect(parseKeyLimits({ validFor: '8760', unit: 'hours', uses: '10000' })).toEqual({
      limits: { expires_in_hours: 8760, uses: 10_000 },
    });
  });
});

describe('keyStatus', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  it('is usable before expiry with uses left, expired from its expiry, used up with none left', () => {
    expect(keyStatus({ expires_at: '2026-03-01T12:00:01Z', uses_left: 1 }, now)).toBe('usable');
    expect(keyStatus({ expires_at: '2026-03-01T12:00:00Z', uses_left: 1 }, now)).toBe('expired');
    expect(keyStatus({ expires_at: '2026-03-02T00:00:00Z', uses_left: 0 }, now)).toBe('used-up');
    expect(keyStatus({ expires_at: '2026-02-01T00:00:00Z', uses_left: 0 }, now)).toBe('expired');
  });
});
