import type { Language } from '@gatehouse/contracts';
import en from '../locales/en.json';

/** A message catalogue: nested message ids to texts. */
export type Messages = { [key: string]: string | Messages };

/**
 * A feature may keep its own messages in features/<name>/locales/<lang>.json (the mock-data mode
 * in mock/locales/), under a top-level
 * key of its own; they are merged into the shell's catalogue of that language. English, the default
 * and the fallback, is bundled; every other language is fetched on first use (one chunk per language,
 * see vite.config.ts), which keeps five sixths of the messages out of the initial bundle.
 */
const englishFeatureFiles = import.meta.glob<Messages>(['../features/*/locales/en.json', '../mock/locales/en.json'], {
  eager: true,
  import: 'default',
});
const otherFiles = import.meta.glob<Messages>(
  ['../locales/*.json', '../features/*/locales/*.json', '../mock/locales/*.json', '!**/en.json'],
  {
    import: 'default',
  },
);

function merge(target: Messages, source: Messages, where: string): Messages {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (typeof value === 'object' && typeof existing === 'object') merge(existing, value, `${where}.${key}`);
    else if (existing !== undefined) throw new Error(`message id ${where}.${key} is defined twice`);
    else target[key] = typeof value === 'object' ? merge({}, value, `${where}.${key}`) : value;
  }
  return target;
}

function build(language: Language, shell: Messages, features: readonly Messages[]): Messages {
  const catalogue = merge({}, shell, language);
  for (const messages of features) merge(catalogue, messages, language);
  return catalogue;
}

/** The whole English catalogue: the shell's messages and every feature's. */
export const englishCatalogue: Messages = build('en', en, Object.values(englishFeatureFiles));

const pending = new Map<Language, Promise<Messages>>();

async function fetchCatalogue(language: Language): Promise<Messages> {
  const files = Object.entries(otherFiles).filter(([file]) => file.endsWith(`/${language}.json`));
  const loaded = await Promise.all(files.map(async ([file, load]) => ({ file, messages: await load() })));
  const shell = loaded.find(({ file }) => file.startsWith('../locales/'))?.messages ?? {};
  const features = loaded.filter(({ file }) => !file.startsWith('../locales/')).map(({ messages }) => messages);
  return build(language, shell, features);
}

/** One language's whole catalogue; English at once, another fetched once (again after a failure). */
export function loadCatalogue(language: Language): Promise<Messages> {
  if (language === 'en') return Promise.resolve(englishCatalogue);
  const known = pending.get(language);
  if (known) return known;
  const loading = fetchCatalogue(language);
  pending.set(language, loading);
  loading.catch(() => pending.delete(language));
  return loading;
}

/** The feature locale files found, for the completeness test. */
export const featureLocaleFiles: readonly string[] = [
  ...Object.keys(englishFeatureFiles),
  ...Object.keys(otherFiles).filter((file) => !file.startsWith('../locales/')),
];
