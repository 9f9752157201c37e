import type { AuditEntry } from '@gatehouse/contracts';

/** The columns of the CSV export, in order. */
export const CSV_COLUMNS = ['id', 'at', 'actor', 'action', 'target', 'outcome', 'status', 'source', 'detail'] as const;

/**
 * A spreadsheet runs a cell starting with one of these as a formula (OWASP CSV injection): = + - @,
 * and tab or carriage return, which some spreadsheets skip before looking.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell (RFC 4180): a leading ' defuses a formula; quotes, commas and line breaks are quoted. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV header line. */
export function csvHeader(): string {
  return `${CSV_COLUMNS.join(',')}\r\n`;
}

/** One entry as a CSV record, CRLF-terminated. */
export function csvLine(entry: AuditEntry): string {
  return `${CSV_COLUMNS.map((column) => csvCell(entry[column])).join(',')}\r\n`;
}

/**
 * One entry as a JSON Lines record. JSON escapes CR and LF inside strings; U+2028 and U+2029 are
 * escaped too, so no reader that splits on any line separator sees two records.
 */
export function jsonLine(entry: AuditEntry): string {
  return `${JSON.stringify(entry)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')}\n`;
}
