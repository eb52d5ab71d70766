/**
 * CSV for spreadsheets (RFC 4180 quoting). A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return is read as a formula by Excel and LibreOffice, so such a cell gets a leading apostrophe: a member's
 * name or an audit detail can never run as a formula on an admin's machine (OWASP "CSV injection").
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) || safe !== safe.trim() ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;
