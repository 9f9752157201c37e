import { LANGUAGES } from '@gatehouse/contracts';
import type { GridLocaleText } from '@mui/x-data-grid';
import { describe, expect, it } from 'vitest';
import { gridLocaleText } from './grid-locale';

/** Arabic-Indic (U+0660–0669) and Eastern Arabic-Indic (U+06F0–06F9) digits, and Arabic separators. */
const NON_LATIN_DIGITS = /[\u0660-\u066C\u06F0-\u06F9]/;

type Pager = GridLocaleText['paginationDisplayedRows'];

function pager(language: string): Pager {
  const text = gridLocaleText(language).paginationDisplayedRows;
  if (!text) throw new Error(`no pager label in ${language}`);
  return text;
}

describe('gridLocaleText', () => {
  it('gives the Arabic pager label in Latin digits, the range in reading order', () => {
    const label = pager('ar');
    expect(label({ from: 1, to: 25, count: -1, estimated: undefined })).toBe('1–25 من أكثر من 25');
    expect(label({ from: 26, to: 50, count: 12345, estimated: undefined })).toBe('26–50 من 12,345');
    expect(label({ from: 1, to: 25, count: -1, estimated: 1000 })).toBe('1–25 من حوالي 1,000');
  });

  it('keeps the Arabic words and row counts of MUI X, in Latin digits', () => {
    const ar = gridLocaleText('ar');
    expect(ar.paginationRowsPerPage).toBe('عدد الصفوف في الصفحة:');
    expect(ar.footerRowSelected?.(1234)).toBe('تم تحديد 1,234 من الصفوف');
    expect(ar.footerRowSelected?.(1)).toBe('تم تحديد صف واحد');
    expect(ar.footerTotalVisibleRows?.(1500, 20000)).toBe('1,500 من 20,000');
  });

  it('shows no Arabic-Indic digit in any console language', () => {
    for (const language of LANGUAGES) {
      const texts = gridLocaleText(language);
      const shown = [
        pager(language)({ from: 1001, to: 1025, count: 123456, estimated: undefined }),
        pager(language)({ from: 1, to: 25, count: -1, estimated: undefined }),
        texts.footerRowSelected?.(2345),
        texts.footerTotalVisibleRows?.(1500, 20000),
      ];
      for (const text of shown) {
        // MUI X's row counts may be elements; ours are plain text.
        if (typeof text !== 'string') throw new Error(`${language}: a row count is not text`);
        expect(text, `${language}: ${text}`).not.toMatch(NON_LATIN_DIGITS);
        expect(text, `${language}: ${text}`).toMatch(/\d/);
      }
    }
  });

  it('speaks English for a language the console does not have', () => {
    expect(pager('xx')({ from: 1, to: 10, count: 10, estimated: undefined })).toBe('1–10 of 10');
    expect(gridLocaleText('xx').paginationRowsPerPage).toBe('Rows per page:');
  });
});
