import { LANGUAGES, RTL_LANGUAGES } from '@gatehouse/contracts';
import type { Language } from '@gatehouse/contracts';
import { STORAGE_KEYS, readString } from './storage';

/** English is the default language (spec §1). */
export const DEFAULT_LANGUAGE: Language = 'en';

/** The console languages in menu order. */
export const LANGUAGE_CODES: readonly Language[] = LANGUAGES;

/** True when the string is one of the console languages. */
export function isLanguage(value: string | null | undefined): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** True for right-to-left languages (Arabic only, spec §2.9). */
export function isRtlLanguage(language: string): boolean {
  return (RTL_LANGUAGES as readonly string[]).includes(language);
}

/** The language saved in localStorage 'locale', or English. */
export function storedLanguage(): Language {
  const saved = readString(STORAGE_KEYS.locale);
  return isLanguage(saved) ? saved : DEFAULT_LANGUAGE;
}
