/**
 * CSV for spreadsheets (RFC 4180, CRLF line ends), safe against formula injection: a cell that starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a formula by Excel, LibreOffice or Sheets, so it
 * is prefixed with `'`, which they show as text (OWASP "CSV injection"). A plain negative number is left alone
 * where a column holds numbers (`numeric`), so amounts stay numbers. Used by the statement and the audit export.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** One cell; null and undefined are empty, other non-strings are written as JSON (an audit detail). */
export function csvCell(value: unknown, { numeric = false }: { numeric?: boolean } = {}): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const cell = FORMULA_START.test(text) && !(numeric && PLAIN_NUMBER.test(text)) ? `'${text}` : text;
  return /[",\r\n]/.test(cell) || cell !== cell.trim() ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** One line of CSV; `numericColumns` are the indexes of the columns that hold numbers. */
export const csvRow = (cells: readonly unknown[], numericColumns: readonly number[] = []) =>
  `${cells.map((cell, i) => csvCell(cell, { numeric: numericColumns.includes(i) })).join(',')}\r\n`;

/** One line of CSV with no numeric column (safe to pass to `Array.prototype.map`). */
export const csvLine = (cells: readonly unknown[]) => csvRow(cells);
