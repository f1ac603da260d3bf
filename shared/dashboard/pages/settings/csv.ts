/**
 * CSV (RFC 4180) for the dashboard's downloads: every cell quoted when it must be, and a cell a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) prefixed with `'`.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvOf(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
