import { afterEach, describe, expect, it } from 'vitest';
import { loadDateLocale, setDateLocale } from '../../../lib/dates';
import { formatBucketLong, formatBucketTick, formatCount, spansYears } from './format';

const localIso = (...parts: [number, number, number, number?]) =>
  new Date(parts[0], parts[1], parts[2], parts[3] ?? 0).toISOString();

describe('dashboard formatting', () => {
  afterEach(() => setDateLocale('en'));

  it('groups counts and uses the language digits', () => {
    expect(formatCount(12345, 'en')).toBe('12,345');
    expect(formatCount(12345, 'fr')).toMatch(/^12\s345$/);
    expect(formatCount(12345, 'ar')).toBe(new Intl.NumberFormat('ar-u-nu-latn').format(12345));
  });

  it('shows a daily tick as a short local day in the chosen language', () => {
    const start = localIso(2026, 3, 5);
    expect(formatBucketTick(start, 'day', 'en')).toBe('Apr 5');
    expect(formatBucketTick(start, 'day', 'fr')).toBe('5 avr.');
    expect(formatBucketTick(start, 'day', 'en', true)).toBe('Apr 5, 26');
  });

  it('shows an hourly tick as the local hour', () => {
    const start = localIso(2026, 3, 5, 15);
    expect(formatBucketTick(start, 'hour', 'en').replace(/\s/g, ' ')).toBe('3:00 PM');
    expect(formatBucketTick(start, 'hour', 'fr')).toBe('15:00');
  });

  it('writes the tooltip date in full with dayjs in the console language', async () => {
    const start = localIso(2026, 3, 5);
    expect(formatBucketLong(start, 'day')).toBe('April 5, 2026');
    await loadDateLocale('fr');
    setDateLocale('fr');
    expect(formatBucketLong(start, 'day')).toBe('5 avril 2026');
    expect(formatBucketLong(localIso(2026, 3, 5, 15), 'hour')).toBe('5 avril 2026 15:00');
  });

  it('treats a server time without a zone as UTC', () => {
    const utcNoon = '2026-04-05T12:00:00';
    expect(formatBucketLong(utcNoon, 'hour')).toBe(formatBucketLong('2026-04-05T12:00:00Z', 'hour'));
  });

  it('notices buckets that span calendar years', () => {
    expect(spansYears([localIso(2025, 11, 30), localIso(2026, 0, 2)])).toBe(true);
    expect(spansYears([localIso(2026, 0, 1), localIso(2026, 11, 31)])).toBe(false);
    expect(spansYears([localIso(2026, 0, 1)])).toBe(false);
  });
});
