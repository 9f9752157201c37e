import type { Language } from '@gatehouse/contracts';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import ar from '../locales/ar.json';
import en from '../locales/en.json';
import es from '../locales/es.json';
import fr from '../locales/fr.json';
import it from '../locales/it.json';
import zh from '../locales/zh.json';
import { setDateLocale } from './dates';
import { DEFAULT_LANGUAGE, storedLanguage } from './languages';
import { STORAGE_KEYS, writeString } from './storage';

/** Every message catalogue, bundled: they are small and the switch must be instant. */
export const resources = {
  en: { translation: en },
  zh: { translation: zh },
  es: { translation: es },
  fr: { translation: fr },
  it: { translation: it },
  ar: { translation: ar },
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
