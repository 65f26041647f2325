/**
 * Who holds a key (a rank_id, an address), for the uniqueness rules: the holders' positions in document order,
 * kept sorted, so the first one (the one the full validator remembers and names as "other") is always at hand.
 * Most keys have one holder: it is stored as a bare number, and only a duplicated key costs an array.
 */
import type { KeyedMap } from "../string-map";

export type Holders = number | number[];

export function firstHolder(holders: Holders): number {
  return typeof holders === "number" ? holders : holders[0]!;
}

export function holderList(holders: Holders | undefined): readonly number[] {
  if (holders === undefined) return [];
  return typeof holders === "number" ? [holders] : holders;
}

/** Where `value` goes in a sorted list (the index of the first entry not below it). */
function lowerBound(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Files `holder` under `key`; answers the key's first holder now (no second lookup for the caller). */
export function addHolder<K>(map: KeyedMap<K, Holders>, key: K, holder: number): number {
  const current = map.get(key);
  if (current === undefined) {
    map.set(key, holder);
    return holder;
  }
  if (typeof current === "number") {
    map.set(key, current < holder ? [current, holder] : [holder, current]);
    return Math.min(current, holder);
  }
  // Building walks the table in order: appending is the usual case.
  if (current[current.length - 1]! < holder) current.push(holder);
  else current.splice(lowerBound(current, holder), 0, holder);
  return current[0]!;
}

export function removeHolder<K>(map: KeyedMap<K, Holders>, key: K, holder: number): void {
  const current = map.get(key);
  if (current === undefined) return;
  if (typeof current === "number") {
    if (current === holder) map.delete(key);
    return;
  }
  const at = lowerBound(current, holder);
  if (current[at] !== holder) return;
  current.splice(at, 1);
  if (current.length === 1) map.set(key, current[0]!);
}
