// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../../lib/storage';
import { savedColumnChoices } from './sessions-grid';

describe('the sessions grid’s saved column choices', () => {
  afterEach(() => localStorage.clear());

  it('are read per user, and only the shown/hidden flags of known layouts count', () => {
    localStorage.setItem(
      STORAGE_KEYS.sessionColumns,
      JSON.stringify({
        'ana@example.test': { wide: { tunnel: true, ended_on: true, kind: 'yes' }, sideways: { tunnel: true } },
        'bo@example.test': { wide: { tunnel: false } },
      }),
    );
    expect(savedColumnChoices('ana@example.test')).toEqual({ wide: { tunnel: true, ended_on: true } });
    expect(savedColumnChoices('bo@example.test')).toEqual({ wide: { tunnel: false } });
    expect(savedColumnChoices('cy@example.test')).toEqual({});
    expect(savedColumnChoices(undefined)).toEqual({});
  });

  it('ignore what is not theirs to read: broken JSON, arrays, strings', () => {
    for (const raw of ['{not json', '[1,2]', '"text"', 'null', JSON.stringify({ 'ana@example.test': 'wide' })]) {
      localStorage.setItem(STORAGE_KEYS.sessionColumns, raw);
      expect(savedColumnChoices('ana@example.test')).toEqual({});
    }
  });
});
