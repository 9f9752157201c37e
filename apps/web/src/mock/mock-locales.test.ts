import { LANGUAGES } from '@gatehouse/contracts';
import { describe, expect, it } from 'vitest';
import type { Messages } from '../lib/catalogues';

const files = import.meta.glob<Messages>('./locales/*.json', { eager: true, import: 'default' });

function flatten(messages: Messages, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const id = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(id, value);
    else for (const [k, v] of flatten(value, id)) out.set(k, v);
  }
  return out;
}

const placeholders = (text = '') => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('mock data messages', () => {
  const english = flatten(files['./locales/en.json'] ?? {});

  it('exist in the six languages, under mockData only', () => {
    expect(Object.keys(files).sort()).toEqual(LANGUAGES.map((l) => `./locales/${l}.json`).sort());
    for (const file of Object.values(files)) expect(Object.keys(file)).toEqual(['mockData']);
  });

  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    it(`${language} has every english message, translated, with the same placeholders`, () => {
      const messages = flatten(files[`./locales/${language}.json`] ?? {});
      expect([...messages.keys()].sort()).toEqual([...english.keys()].sort());
      for (const [id, text] of english) {
        expect(messages.get(id)?.trim(), `${language} ${id}`).toBeTruthy();
        expect(messages.get(id), `${language} ${id}`).not.toBe(text);
        expect(placeholders(messages.get(id)), `${language} ${id}`).toEqual(placeholders(text));
      }
    });
  }
});
