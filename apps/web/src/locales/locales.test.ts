import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@gatehouse/contracts';
import { type Messages, loadCatalogue } from '../lib/catalogues';

/** Every leaf of a nested catalogue as 'a.b.c' → value. */
function flatten(messages: Messages, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(messages)) {
    const id = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'object' && value !== null) for (const [k, v] of flatten(value, id)) out.set(k, v);
    else out.set(id, value);
  }
  return out;
}

/** The {{placeholders}} a message uses, sorted. */
function placeholders(text: unknown): string[] {
  return typeof text === 'string' ? [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort() : [];
}

// The merged catalogues: the shell's messages plus every feature's locales/<lang>.json.
const catalogues = Object.fromEntries(
  await Promise.all(LANGUAGES.map(async (language) => [language, await loadCatalogue(language)] as const)),
);
const { en = {}, ...others } = catalogues;
const english = flatten(en);

describe('message catalogues', () => {
  it('english has no empty messages', () => {
    const empty = [...english]
      .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
      .map(([id]) => id);
    expect(empty).toEqual([]);
  });

  for (const [language, messages] of Object.entries(others)) {
    const catalogue = flatten(messages);

    it(`${language} has every english key, none empty`, () => {
      const missing = [...english.keys()].filter((id) => {
        const value = catalogue.get(id);
        return typeof value !== 'string' || value.trim() === '';
      });
      expect(missing).toEqual([]);
    });

    it(`${language} has no key english lacks`, () => {
      expect([...catalogue.keys()].filter((id) => !english.has(id))).toEqual([]);
    });

    it(`${language} keeps the english placeholders`, () => {
      const differing = [...english]
        .filter(([id, value]) => placeholders(value).join() !== placeholders(catalogue.get(id)).join())
        .map(([id]) => id);
      expect(differing).toEqual([]);
    });
  }
});
