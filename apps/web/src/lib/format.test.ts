import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { loadDateLocale, setDateLocale, formatDateTime } from './dates';
import {
  dateTimeFormat,
  formatBytes,
  formatClock,
  formatCount,
  formatDuration,
  listFormat,
  numberFormat,
} from './format';

const DAY = 86_400_000;
const t = i18next.createInstance();
await t.init({
  lng: 'en',
  resources: {
    en: {
      translation: {
        units: {
          bytes: {
            B: '{{value}} B',
            KiB: '{{value}} KiB',
            MiB: '{{value}} MiB',
            GiB: '{{value}} GiB',
            TiB: '{{value}} TiB',
          },
        },
      },
    },
    ar: {
      translation: {
        units: {
          bytes: {
            B: '{{value}} بايت',
            KiB: '{{value}} كيلوبايت',
            MiB: '{{value}} ميغابايت',
            GiB: '{{value}} غيغابايت',
            TiB: '{{value}} تيرابايت',
          },
        },
      },
    },
  },
  interpolation: { escapeValue: false },
});

describe('formatDuration: the one duration format', () => {
  it('shows whole seconds in short units, largest first, without zero parts', () => {
    expect(formatDuration(72_632, 'en')).toBe('1 min 12 sec');
    expect(formatDuration(17_900, 'en')).toBe('17 sec');
    expect(formatDuration(3_723_450, 'en')).toBe('1 hr 2 min 3 sec');
    expect(formatDuration(2 * 3_600_000, 'en')).toBe('2 hr');
    expect(formatDuration(0, 'en')).toBe('0 sec');
    expect(formatDuration(-5, 'en')).toBe('0 sec');
  });
  it('counts days as the largest unit (no 30-day months)', () => {
    expect(formatDuration(400 * DAY + 5_000, 'en')).toBe('400 days 5 sec');
  });
  it("marks a length still growing with '+'", () => {
    expect(formatDuration(17_000, 'en', true)).toBe('+17 sec');
  });
  it('speaks the console language, Arabic too', () => {
    const arabic = formatDuration(72_000, 'ar');
    expect(arabic).not.toMatch(/[a-z]/i);
    expect(arabic).toBe(
      new Intl.ListFormat('ar-u-nu-latn', { style: 'narrow', type: 'unit' }).format([
        new Intl.NumberFormat('ar-u-nu-latn', { style: 'unit', unit: 'minute', unitDisplay: 'short' }).format(1),
        new Intl.NumberFormat('ar-u-nu-latn', { style: 'unit', unit: 'second', unitDisplay: 'short' }).format(12),
      ]),
    );
    expect(formatDuration(3_723_000, 'fr').replace(/\s/g, ' ')).toBe('1 h 2 min 3 s');
  });
});

describe('formatBytes: binary units, localised', () => {
  it('answers B, KiB, MiB with one decimal at most', () => {
    const en = t.getFixedT('en');
    expect(formatBytes(759, en, 'en')).toBe('759 B');
    expect(formatBytes(1536, en, 'en')).toBe('1.5 KiB');
    expect(formatBytes(3 * 1024 * 1024, en, 'en')).toBe('3 MiB');
    expect(formatBytes(5.25 * 1024 ** 3, en, 'en')).toBe('5.3 GiB');
    expect(formatBytes(Number.NaN, en, 'en')).toBe('0 B');
  });
  it('gives Arabic its own unit names and digits', () => {
    const text = formatBytes(759, t.getFixedT('ar'), 'ar');
    expect(text).toBe('759 بايت');
    expect(text).not.toMatch(/byte/);
  });
});

describe('formatClock', () => {
  it('shows a moment as m:ss or h:mm:ss', () => {
    expect(formatClock(75.9)).toBe('1:15');
    expect(formatClock(3725)).toBe('1:02:05');
  });
});

describe('Arabic shows Latin digits everywhere (docs/ARCHITECTURE.md, Digits)', () => {
  const arabicIndic = /[\u0660-\u0669\u06f0-\u06f9]/;
  it('in durations, sizes, counts and dates alike', async () => {
    const ar = t.getFixedT('ar');
    await loadDateLocale('ar');
    setDateLocale('ar');
    try {
      const texts = [
        formatDuration(3_723_000, 'ar'),
        formatBytes(1536, ar, 'ar'),
        formatCount(12345, 'ar'),
        formatDateTime('2026-04-05T15:04:00Z'),
      ];
      for (const text of texts) {
        expect(text).toMatch(/[0-9]/);
        expect(text).not.toMatch(arabicIndic);
      }
    } finally {
      setDateLocale('en');
    }
  });
});

describe('Intl formatters', () => {
  it('are made once per language and options, and differ where the options do', () => {
    expect(numberFormat('en')).toBe(numberFormat('en'));
    expect(numberFormat('en', { maximumFractionDigits: 1 })).toBe(numberFormat('en', { maximumFractionDigits: 1 }));
    expect(numberFormat('en', { maximumFractionDigits: 1 })).not.toBe(numberFormat('en'));
    expect(numberFormat('ar')).not.toBe(numberFormat('en'));
    expect(listFormat('en', { type: 'unit' })).toBe(listFormat('en', { type: 'unit' }));
    expect(dateTimeFormat('en', { month: 'short' })).toBe(dateTimeFormat('en', { month: 'short' }));
    // Each keeps the console's locale: Latin digits in Arabic too.
    expect(numberFormat('ar').format(12345)).toMatch(/^12[^0-9]?345$/);
    expect(numberFormat('ar').resolvedOptions().numberingSystem).toBe('latn');
  });
});
