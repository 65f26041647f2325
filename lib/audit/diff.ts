/** A compact before/after for the audit log: only the fields that changed, with secrets masked. */
export interface Change {
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const secretFields = /password|secret|token(?!_?name)|hash/i;

function mask(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, secretFields.test(key) && value != null ? "***" : value]));
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return String(a instanceof Date ? a.toISOString() : a) === String(b instanceof Date ? b.toISOString() : b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * `compactChange(before, after)`: for an update, the changed keys only (a key that appears on one side only counts
 * as changed); for a create (`before` null) or a delete (`after` null), the whole record. Secret-looking fields
 * (password, token, hash, secret) are replaced by "***".
 */
export function compactChange(before: Record<string, unknown> | null | undefined, after: Record<string, unknown> | null | undefined): Change {
  if (!before || !after) return { before: before ? mask(before) : null, after: after ? mask(after) : null };
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => !same(before[key], after[key]));
  const pick = (record: Record<string, unknown>) => mask(Object.fromEntries(keys.filter((key) => key in record).map((key) => [key, record[key]])));
  return { before: pick(before), after: pick(after) };
}
