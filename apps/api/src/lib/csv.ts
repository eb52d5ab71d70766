/**
 * CSV for spreadsheets (RFC 4180, CRLF line ends), safe against formula injection: a cell that starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a formula by Excel, LibreOffice or Sheets, so it
 * is prefixed with `'`, which they show as text. A plain negative number is left alone where a column holds
 * numbers (`numeric`), so amounts stay numbers.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

export function csvCell(value: string, { numeric = false }: { numeric?: boolean } = {}): string {
  let cell = value;
  if (FORMULA_START.test(cell) && !(numeric && PLAIN_NUMBER.test(cell))) cell = `'${cell}`;
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** One line of CSV; `numericColumns` are the indexes of the columns that hold numbers. */
export const csvRow = (cells: readonly string[], numericColumns: readonly number[] = []) =>
  `${cells.map((cell, i) => csvCell(cell, { numeric: numericColumns.includes(i) })).join(',')}\r\n`;
