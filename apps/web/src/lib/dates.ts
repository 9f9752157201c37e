import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import relativeTime from 'dayjs/plugin/relativeTime';
import utc from 'dayjs/plugin/utc';

dayjs.extend(localizedFormat);
dayjs.extend(utc);
dayjs.extend(relativeTime);

const DAYJS_LOCALES: Record<string, string> = { en: 'en', zh: 'zh-cn', es: 'es', fr: 'fr', it: 'it', ar: 'ar' };

/**
 * The dayjs locale of each language but English (built in), fetched beside that language's messages
 * (a small chunk each) so that none of them is in the first load.
 */
const LOCALE_LOADERS: Record<string, () => Promise<unknown>> = {
  ar: () => import('dayjs/locale/ar'),
  es: () => import('dayjs/locale/es'),
  fr: () => import('dayjs/locale/fr'),
  it: () => import('dayjs/locale/it'),
  zh: () => import('dayjs/locale/zh-cn'),
};

/** Loads the dayjs locale of a console language; setDateLocale can then switch to it. */
export async function loadDateLocale(language: string): Promise<void> {
  await LOCALE_LOADERS[language]?.();
}

/** Switches dayjs to the console language (English until that language's locale is loaded). */
export function setDateLocale(language: string): void {
  dayjs.locale(DAYJS_LOCALES[language] ?? 'en');
}

/** Treats a server time without zone as UTC (spec §3: a trailing Z is appended). */
export function parseServerTime(value: string): dayjs.Dayjs {
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`;
  return dayjs.utc(zoned).local();
}

/** Local date and time in the 'L LT' format, or '-' when absent (spec §3, §9). */
export function formatDateTime(value: string | null | undefined): string {
  return value ? parseServerTime(value).format('L LT') : '-';
}

/** A server time relative to `now` in the console language, such as "in 23 hours" or "3 days ago". */
export function formatRelative(value: string, now: number = Date.now()): string {
  return parseServerTime(value).from(dayjs(now));
}
