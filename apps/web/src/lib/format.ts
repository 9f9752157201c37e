import type { TFunction } from 'i18next';

/**
 * The locale every number, duration, size and date of the console is formatted in: the language
 * with Latin digits (0-9) always, Arabic included. A deliberate choice (docs/ARCHITECTURE.md,
 * "Digits"): many Arabic products show Latin digits, engines disagree on 'ar' (Chromium gives
 * Latin digits, others Arabic-Indic ones), and dayjs's 'ar' dates are Latin, so asking for 'latn'
 * keeps durations, sizes, counts and dates alike in every browser.
 */
export function intlLocale(language: string): string {
  return `${language}-u-nu-latn`;
}

/**
 * Intl's formatters for a language and options, each made once: making one costs some 60 times
 * what using it does (0.08 against 0.001 ms here), and a screen formats hundreds of values on its
 * first render, again every second for live durations (issue 19).
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.ListFormat | Intl.DateTimeFormat>();
function formatter<F extends Intl.NumberFormat | Intl.ListFormat | Intl.DateTimeFormat>(
  kind: string,
  language: string,
  options: object | undefined,
  make: (locale: string) => F,
): F {
  const key = `${kind} ${language} ${options ? JSON.stringify(options) : ''}`;
  let made = formatters.get(key) as F | undefined;
  if (!made) {
    made = make(intlLocale(language));
    formatters.set(key, made);
  }
  return made;
}

/** An Intl.NumberFormat in the console's locale for the language (see intlLocale), made once. */
export function numberFormat(language: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  return formatter('number', language, options, (locale) => new Intl.NumberFormat(locale, options));
}

/** An Intl.ListFormat in the console's locale for the language, made once. */
export function listFormat(language: string, options?: Intl.ListFormatOptions): Intl.ListFormat {
  return formatter('list', language, options, (locale) => new Intl.ListFormat(locale, options));
}

/** An Intl.DateTimeFormat in the console's locale for the language, made once. */
export function dateTimeFormat(language: string, options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return formatter('date', language, options, (locale) => new Intl.DateTimeFormat(locale, options));
}

/** A count in the console language, grouped ("12,345"), Latin digits (see intlLocale). */
export function formatCount(value: number, language: string): string {
  return numberFormat(language).format(value);
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const DURATION_UNITS = [
  ['day', DAY],
  ['hour', HOUR],
  ['minute', MINUTE],
] as const;

/**
 * A length of time in the language's short units, whole seconds, largest unit first:
 * "1 hr 12 min 5 sec", "17 sec", in Arabic "1 س و12 د و5 ث" (Latin digits, see intlLocale). The one duration format of the
 * console (sessions, detail, player, search, dashboard): every screen that shows a length of time
 * calls this. `running` marks a length still growing (a live session) with a leading '+'.
 * Days are the largest unit: months and years of 30 and 365 days read as precise when they are not.
 */
export function formatDuration(ms: number, language: string, running = false): string {
  let rest = Math.max(0, Math.floor(ms / SECOND)) * SECOND;
  const parts: string[] = [];
  for (const [unit, size] of DURATION_UNITS) {
    const value = Math.floor(rest / size);
    rest -= value * size;
    if (value > 0) parts.push(unitText(value, unit, language));
  }
  // Seconds show when there are some, or nothing else: "2 hr", not "2 hr 0 sec"; "0 sec" alone.
  if (rest > 0 || parts.length === 0) parts.push(unitText(rest / SECOND, 'second', language));
  const text = listFormat(language, { style: 'narrow', type: 'unit' }).format(parts);
  return running ? `+${text}` : text;
}

function unitText(value: number, unit: 'day' | 'hour' | 'minute' | 'second', language: string): string {
  return numberFormat(language, { style: 'unit', unit, unitDisplay: 'short' }).format(value);
}

/** The binary units a size is shown in (Intl has none of them: their names are messages). */
export const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/**
 * A size in bytes with a binary unit, Latin digits (see intlLocale): "759 B", "1.5 KiB",
 * "3.2 MiB" (in Arabic "759 بايت"). The one size format of the console: every screen that shows
 * a size calls this. `t` gives the unit's name in the console language (units.bytes.*).
 */
export function formatBytes(bytes: number, t: TFunction, language: string): string {
  let value = Math.max(0, Number.isFinite(bytes) ? bytes : 0);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const number = numberFormat(language, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
  return t(`units.bytes.${BYTE_UNITS[unit] ?? 'B'}`, { value: number });
}

/** m:ss or h:mm:ss of a number of seconds: a moment in a recording (seek bar, hits, transfers), not a length. */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${String(h)}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}
