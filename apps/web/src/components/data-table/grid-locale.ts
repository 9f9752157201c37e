import type { Language } from '@gatehouse/contracts';
import type { GridLocaleText } from '@mui/x-data-grid';
import { arSD, enUS, esES, frFR, itIT, zhCN } from '@mui/x-data-grid/locales';
import { formatCount } from '../../lib/format';

const GRID_LOCALES: Record<Language, Partial<GridLocaleText>> = {
  en: enUS.components.MuiDataGrid.defaultProps.localeText,
  zh: zhCN.components.MuiDataGrid.defaultProps.localeText,
  es: esES.components.MuiDataGrid.defaultProps.localeText,
  fr: frFR.components.MuiDataGrid.defaultProps.localeText,
  it: itIT.components.MuiDataGrid.defaultProps.localeText,
  ar: arSD.components.MuiDataGrid.defaultProps.localeText,
};

/** The words around the grid's numbers, as MUI X's own translations have them. */
interface CountWords {
  /** Between the shown rows and the total: "1–25 of 120". */
  of: string;
  /** An unknown total: "1–25 of more than 25". */
  moreThan: string;
  /** An estimated total: "1–25 of around 100". */
  around: string;
  /** The footer's count of selected rows, given the formatted count and the count. */
  selected: (count: string, n: number) => string;
  /** Between the visible and the total rows of the footer's row count. */
  visibleOf: string;
}

const WORDS: Record<Language, CountWords> = {
  en: {
    of: 'of',
    moreThan: 'more than',
    around: 'around',
    selected: (count, n) => (n !== 1 ? `${count} rows selected` : `${count} row selected`),
    visibleOf: 'of',
  },
  zh: {
    of: '共',
    moreThan: '超过',
    around: '约',
    selected: (count) => `共选中了${count}行`,
    visibleOf: '/',
  },
  es: {
    of: 'de',
    moreThan: 'más de',
    around: 'alrededor de',
    selected: (count, n) => (n > 1 ? `${count} filas seleccionadas` : `${count} fila seleccionada`),
    visibleOf: 'de',
  },
  fr: {
    of: 'sur',
    moreThan: 'plus de',
    around: 'environ',
    selected: (count, n) => (n > 1 ? `${count} lignes sélectionnées` : `${count} ligne sélectionnée`),
    visibleOf: 'sur',
  },
  it: {
    of: 'di',
    moreThan: 'più di',
    around: 'circa',
    selected: (count, n) => (n > 1 ? `${count} record selezionati` : `${count} record selezionato`),
    visibleOf: 'di',
  },
  ar: {
    of: 'من',
    moreThan: 'أكثر من',
    around: 'حوالي',
    selected: (count, n) => (n !== 1 ? `تم تحديد ${count} من الصفوف` : 'تم تحديد صف واحد'),
    visibleOf: 'من',
  },
};

function isLanguage(language: string): language is Language {
  return language in GRID_LOCALES;
}

/**
 * The grid's texts that carry numbers (the pager's "1–25 of 120", the selected and visible row
 * counts), formatted like every other number of the console: Latin digits in every language,
 * Arabic included (intlLocale). MUI X formats them in its own locale ('ar-SD': Arabic-Indic digits).
 */
function countTexts(language: Language): Partial<GridLocaleText> {
  const words = WORDS[language];
  const n = (value: number) => formatCount(value, language);
  return {
    // The range stays in reading order ("1–25"); a right-to-left page shows it so, as prose.
    paginationDisplayedRows: ({ from, to, count, estimated }) => {
      const unknown = count === -1;
      const rest = !unknown
        ? n(count)
        : estimated && estimated > to
          ? `${words.around} ${n(estimated)}`
          : `${words.moreThan} ${n(to)}`;
      return `${n(from)}–${n(to)} ${words.of} ${rest}`;
    },
    footerRowSelected: (count) => words.selected(n(count), count),
    footerTotalVisibleRows: (visible, total) => `${n(visible)} ${words.visibleOf} ${n(total)}`,
  };
}

/** The data grid's own texts (paging, sorting, menus) in the console language, numbers in Latin digits. */
export function gridLocaleText(language: string): Partial<GridLocaleText> {
  const lang: Language = isLanguage(language) ? language : 'en';
  return { ...GRID_LOCALES[lang], ...countTexts(lang) };
}
