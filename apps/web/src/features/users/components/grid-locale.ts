import type { Language } from '@gatehouse/contracts';
import type { GridLocaleText } from '@mui/x-data-grid';
import { arSD, enUS, esES, frFR, itIT, zhCN } from '@mui/x-data-grid/locales';

const GRID_LOCALES: Record<Language, Partial<GridLocaleText>> = {
  en: enUS.components.MuiDataGrid.defaultProps.localeText,
  zh: zhCN.components.MuiDataGrid.defaultProps.localeText,
  es: esES.components.MuiDataGrid.defaultProps.localeText,
  fr: frFR.components.MuiDataGrid.defaultProps.localeText,
  it: itIT.components.MuiDataGrid.defaultProps.localeText,
  ar: arSD.components.MuiDataGrid.defaultProps.localeText,
};

/** The data grid's own texts (paging, sorting, menus) in the console language. */
export function gridLocaleText(language: string): Partial<GridLocaleText> {
  return GRID_LOCALES[language as Language] ?? GRID_LOCALES.en;
}
