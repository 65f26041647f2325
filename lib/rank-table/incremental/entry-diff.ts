/**
 * What changed between two versions of a list whose untouched entries are shared (applyEdit) or equal (a clone sent
 * again): either some entries in place, or one stretch replaced by another of another length (a rank, a device or a
 * server added or removed, or several edits in one burst), found as the common prefix and suffix.
 */
import type { JsonObject, JsonValue } from "../model";
import { jsonEqual } from "./json-equal";

export type EntryChange =
  | { kind: "entries"; changed: number[] }
  /** `removed` entries at `at` replaced by `inserted` entries (of the new list, from `at`). */
  | { kind: "splice"; at: number; removed: number; inserted: number };

const same = (a: JsonValue | undefined, b: JsonValue | undefined) => a === b || jsonEqual(a, b);
const isObject = (value: JsonValue | undefined) => typeof value === "object" && value !== null && !Array.isArray(value);

/** Undefined when more than `most` entries changed (validating in full is then cheaper). */
export function diffEntries(before: readonly JsonValue[], after: readonly JsonValue[], most: number): EntryChange | undefined {
  if (before.length === after.length) {
    const changed: number[] = [];
    let shapeChanged = false;
    for (let index = 0; index < after.length; index++) {
      if (same(after[index], before[index])) continue;
      if (changed.length === most) return undefined;
      changed.push(index);
      // An entry that became (or stopped being) an object moves the positions of the ranks after it.
      if (isObject(after[index]) !== isObject(before[index])) shapeChanged = true;
    }
    if (!shapeChanged) return { kind: "entries", changed };
    const at = changed[0]!;
    const span = changed[changed.length - 1]! + 1 - at;
    return span > most ? undefined : { kind: "splice", at, removed: span, inserted: span };
  }
  const shorter = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < shorter && same(after[prefix], before[prefix])) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && same(after[after.length - 1 - suffix], before[before.length - 1 - suffix])) suffix++;
  const removed = before.length - prefix - suffix;
  const inserted = after.length - prefix - suffix;
  return Math.max(removed, inserted) > most ? undefined : { kind: "splice", at: prefix, removed, inserted };
}

/** Whether `next` differs from `previous` in anything but the value of `list` (keys, their order, other values). */
export function changedBesides(previous: JsonObject, next: JsonObject, list: string): boolean {
  const keys = Object.keys(previous);
  const nextKeys = Object.keys(next);
  if (keys.length !== nextKeys.length) return true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== nextKeys[i] || (key !== list && previous[key] !== next[key])) return true;
  }
  return false;
}
