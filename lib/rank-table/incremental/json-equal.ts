/**
 * Equality of two JSON values, key order included (the order of a rank's keys is the order of its RT002 findings).
 * For a table that arrives whole (the editor sends a structured clone after undo, a repair or a language switch),
 * it tells which rank_list entries really changed, so that the clone is not validated in full again.
 */
import type { JsonValue } from "../model";

export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const other = Object.keys(b);
  if (keys.length !== other.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== other[i] || !jsonEqual(a[key], b[key])) return false;
  }
  return true;
}
