import type { GridLocaleText } from '@mui/x-data-grid';
import { arSD, enUS, esES, frFR, itIT, zhCN } from '@mui/x-data-grid/locales';

const GRID_LOCALES = { en: enUS, zh: zhCN, es: esES, fr: frFR, it: itIT, ar: arSD } as const;

/** The data grid's own texts (sorting, paging, row counts) in the console language. */
export function gridLocaleText(language: string): Partial<GridLocaleText> {
  const locale = language in GRID_LOCALES ? GRID_LOCALES[language as keyof typeof GRID_LOCALES] : enUS;
  return locale.components.MuiDataGrid.defaultProps.localeText;
}
