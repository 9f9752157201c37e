import type { Language } from '@gatehouse/contracts';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { catalogues } from './catalogues';
import { setDateLocale } from './dates';
import { DEFAULT_LANGUAGE, storedLanguage } from './languages';
import { STORAGE_KEYS, writeString } from './storage';

/** Every message catalogue, bundled: they are small and the switch must be instant. */
export const resources = {
  en: { translation: catalogues.en },
  zh: { translation: catalogues.zh },
  es: { translation: catalogues.es },
  fr: { translation: catalogues.fr },
  it: { translation: catalogues.it },
  ar: { translation: catalogues.ar },
} as const satisfies Record<Language, { translation: object }>;

function applyLanguage(language: string): void {
  setDateLocale(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

i18next.on('languageChanged', applyLanguage);

void i18next.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: Object.keys(resources),
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Switches the console language and remembers it in localStorage 'locale'. */
export function changeLanguage(language: Language): void {
  writeString(STORAGE_KEYS.locale, language);
  void i18next.changeLanguage(language);
}

export { i18next };
