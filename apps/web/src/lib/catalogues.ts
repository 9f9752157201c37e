import type { Language } from '@gatehouse/contracts';
import ar from '../locales/ar.json';
import en from '../locales/en.json';
import es from '../locales/es.json';
import fr from '../locales/fr.json';
import it from '../locales/it.json';
import zh from '../locales/zh.json';

/** A message catalogue: nested message ids to texts. */
export type Messages = { [key: string]: string | Messages };

/**
 * A feature may keep its own messages in features/<name>/locales/<lang>.json, under a top-level
 * key of its own; they are merged into the shell's catalogue of that language.
 */
const featureFiles = import.meta.glob<Messages>('../features/*/locales/*.json', { eager: true, import: 'default' });

function merge(target: Messages, source: Messages, where: string): Messages {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (typeof value === 'object' && typeof existing === 'object') merge(existing, value, `${where}.${key}`);
    else if (existing !== undefined) throw new Error(`message id ${where}.${key} is defined twice`);
    else target[key] = typeof value === 'object' ? merge({}, value, `${where}.${key}`) : value;
  }
  return target;
}

function build(language: Language, shell: Messages): Messages {
  const catalogue = merge({}, shell, language);
  for (const [file, messages] of Object.entries(featureFiles)) {
    if (file.endsWith(`/locales/${language}.json`)) merge(catalogue, messages, language);
  }
  return catalogue;
}

/** Every language's whole catalogue: the shell's messages and every feature's. */
export const catalogues: Record<Language, Messages> = {
  en: build('en', en),
  zh: build('zh', zh),
  es: build('es', es),
  fr: build('fr', fr),
  it: build('it', it),
  ar: build('ar', ar),
};

/** The feature locale files found, for the completeness test. */
export const featureLocaleFiles: readonly string[] = Object.keys(featureFiles);
