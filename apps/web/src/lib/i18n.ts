import type { Language } from '@gatehouse/contracts';
import { LANGUAGES } from '@gatehouse/contracts';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { englishCatalogue, loadCatalogue } from './catalogues';
import { loadDateLocale, setDateLocale } from './dates';
import { DEFAULT_LANGUAGE, isRtlLanguage, storedLanguage } from './languages';
import { loadRtlCache } from './rtl-cache';
import { STORAGE_KEYS, writeString } from './storage';

function applyLanguage(language: string): void {
  setDateLocale(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

i18next.on('languageChanged', applyLanguage);

// English is bundled and answers at once; other languages are added when first chosen.
void i18next.use(initReactI18next).init({
  resources: { en: { translation: englishCatalogue } },
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  partialBundledLanguages: true,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Fetches a language's messages once and switches to it; on a failed fetch the language stays. */
async function switchTo(language: Language): Promise<void> {
  const [catalogue] = await Promise.all([
    loadCatalogue(language),
    loadDateLocale(language),
    isRtlLanguage(language) ? loadRtlCache() : undefined,
  ]);
  if (!i18next.hasResourceBundle(language, 'translation')) {
    i18next.addResourceBundle(language, 'translation', catalogue);
  }
  await i18next.changeLanguage(language);
}

/**
 * Settles once the stored language's messages are in: main.tsx renders after it, so a console
 * left in Arabic opens in Arabic (right to left) without an English first paint.
 */
export const i18nReady: Promise<void> = switchTo(storedLanguage()).catch(() => undefined);

/** Switches the console language and remembers it in localStorage 'locale'. */
export function changeLanguage(language: Language): void {
  writeString(STORAGE_KEYS.locale, language);
  void switchTo(language).catch(() => undefined);
}

export { i18next };
