/**
 * CSV text for the history exports (Order History, Fills): RFC 4180 — comma-separated, CRLF line
 * ends, a field quoted when it holds a comma, quote, CR or LF (quotes doubled).
 *
 * Spreadsheet safety: a TEXT field that starts with `=`, `+`, `-`, `@`, TAB or CR would be read as a
 * formula by spreadsheet programs (CSV injection); such a field is prefixed with `'`. Plain decimal
 * strings (e.g. a negative P&L "-12.5") are numbers, not formulas, and are written unchanged, so
 * exported amounts keep their exact digits.
 *
 * Pure: no `vscode`, no Node API.
 */
import { isDecimal } from '../../../api/decimal';

/** A cell value: strings as given (decimals stay exact), numbers via `String`, null/undefined empty. */
export type CsvValue = string | number | boolean | null | undefined;

/** One field, escaped and guarded (see module docstring). */
export function csvField(v: CsvValue): string {
  if (v === null || v === undefined) return '';
  let s = typeof v === 'string' ? v : String(v);
  if (/^[=+\-@\t\r]/.test(s) && !isDecimal(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The CSV text of a header row and data rows (CRLF after every row, the last included). */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',') + '\r\n').join('');
}

/** ISO 8601 UTC time with milliseconds of a ms timestamp (`2024-10-22T06:11:55.444Z`), '' when absent. */
export function isoTime(ms: number | null | undefined): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : '';
}
