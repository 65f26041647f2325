/**
 * CSV injection ("formula injection"): a spreadsheet opening an exported CSV runs a cell that starts with `=`, `+`,
 * `-` or `@` as a formula (`=cmd|' /C calc'!A0`), and quoting the cell does not stop it. OWASP's rule
 * (https://owasp.org/www-community/attacks/CSV_Injection): prefix such cells, and cells starting with a tab or a
 * carriage return, with a single quote, and quote the cell. Leading spaces before a trigger are treated the same,
 * since some spreadsheets skip them. The CSV import removes that quote again, so an export imports back unchanged.
 */
const trigger = /^[\t\r]|^ *[=+\-@]/;

/** The text of a cell as written to a CSV file a spreadsheet may open. */
export function neutraliseCell(text: string): string {
  return trigger.test(text) ? `'${text}` : text;
}

/** True when the text was neutralised by `neutraliseCell` (so the import strips the quote). */
export function restoreCell(text: string): string {
  return text.startsWith("'") && trigger.test(text.slice(1)) ? text.slice(1) : text;
}

/** One RFC 4180 field: text cells neutralised, then quoted when they hold a quote, comma, line break or edge space. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  // Numbers are our own figures (a negative one is not a formula); only text can carry one.
  const text = typeof value === "number" ? String(value) : neutraliseCell(value);
  return text !== String(value) || /[",\r\n\t]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
