/**
 * Where each rank of an incremental state is, as three mappings: entry index (its place in rank_list, what paths
 * name) ↔ position (its place among the entries that are objects), and position → key. A key is a number that
 * keeps document order and never changes while the rank exists: the indexes (holders of a rank_id, an address, a
 * server) store keys, not positions, so a rank added or removed shifts the positions after it without touching any
 * index. Keys start GAP apart; a rank inserted between two takes the middle, and when no whole number is left there
 * (about log2(GAP) inserts at one place) the caller validates in full, which numbers them afresh.
 */
import type { Finding } from "../findings";

/** Keys × an address stride must stay exact doubles (below 2^53). */
const MAX_KEY_SPAN = 2 ** 50;

/** How a stretch of rank_list changed: `removed` entries at `at` replaced by `inserted` ones (objects or not). */
export interface Splice {
  at: number;
  removed: number;
  inserted: readonly boolean[];
}

export class RankOrder {
  /** Position → key, ascending. */
  private keys: number[] = [];
  /** Entry index → position, −1 for an entry that is not an object; position → entry index. */
  private positionOf = new Int32Array(0);
  private entryOf = new Int32Array(0);
  private readonly gap: number;
  /** The largest key magnitude whose address holders (key × stride + ordinal) are still exact. */
  private readonly limit: number;

  /** `isRank[i]`: whether entry i is a rank (an object); `stride`: the address stride keys are multiplied by. */
  constructor(isRank: readonly boolean[], stride: number) {
    const ranks = isRank.filter(Boolean).length;
    this.gap = Math.max(1, Math.min(2 ** 16, Math.floor(MAX_KEY_SPAN / ((ranks + 2) * stride))));
    this.limit = MAX_KEY_SPAN / stride;
    this.positionOf = new Int32Array(isRank.length).fill(-1);
    this.entryOf = new Int32Array(ranks);
    let position = 0;
    for (let index = 0; index < isRank.length; index++) {
      if (!isRank[index]) continue;
      this.positionOf[index] = position;
      this.entryOf[position] = index;
      this.keys.push(position * this.gap);
      position++;
    }
  }

  get size(): number {
    return this.keys.length;
  }

  key(position: number): number {
    return this.keys[position]!;
  }

  /** The position of a live key (binary search over the ascending keys). */
  position(key: number): number {
    const { keys } = this;
    let low = 0;
    let high = keys.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (keys[middle]! < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  entry(position: number): number {
    return this.entryOf[position]!;
  }

  /** −1 when the entry is not a rank. */
  positionOfEntry(index: number): number {
    return this.positionOf[index]!;
  }

  /** The first position at or after entry `index` (where a rank inserted there goes). */
  positionFrom(index: number): number {
    for (let i = index; i < this.positionOf.length; i++) if (this.positionOf[i]! >= 0) return this.positionOf[i]!;
    return this.keys.length;
  }

  /**
   * Applies a splice whose removed ranks' keys the caller has already taken out of its indexes; returns the keys
   * of the inserted ranks, or undefined when there is no room for them between their neighbours' keys.
   */
  splice({ at, removed, inserted }: Splice): number[] | undefined {
    const from = this.positionFrom(at);
    let removedRanks = 0;
    for (let i = at; i < at + removed; i++) if (this.positionOf[i]! >= 0) removedRanks++;
    const count = inserted.filter(Boolean).length;
    const low = from > 0 ? this.keys[from - 1]! : this.keys.length > removedRanks ? this.keys[from + removedRanks]! - this.gap * (count + 1) : 0;
    const high = from + removedRanks < this.keys.length ? this.keys[from + removedRanks]! : low + this.gap * (count + 1);
    const step = (high - low) / (count + 1);
    const fresh: number[] = [];
    for (let i = 1; i <= count; i++) fresh.push(Math.floor(low + step * i));
    for (let i = 0; i < fresh.length; i++) if (fresh[i]! <= (i === 0 ? low : fresh[i - 1]!) || fresh[i]! >= high) return undefined;
    if (Math.abs(low) >= this.limit || Math.abs(high) >= this.limit) return undefined;
    replaceRange(this.keys, from, removedRanks, fresh);

    const shift = inserted.length - removed;
    const positionOf = new Int32Array(this.positionOf.length + shift);
    positionOf.set(this.positionOf.subarray(0, at));
    let position = from;
    for (let i = 0; i < inserted.length; i++) positionOf[at + i] = inserted[i] ? position++ : -1;
    const rankShift = count - removedRanks;
    for (let i = at + removed; i < this.positionOf.length; i++) {
      const old = this.positionOf[i]!;
      positionOf[i + shift] = old < 0 ? -1 : old + rankShift;
    }
    const entryOf = new Int32Array(this.keys.length);
    entryOf.set(this.entryOf.subarray(0, from));
    position = from;
    for (let i = 0; i < inserted.length; i++) if (inserted[i]) entryOf[position++] = at + i;
    for (let p = from + removedRanks; p < this.entryOf.length; p++) entryOf[p + rankShift] = this.entryOf[p]! + shift;
    this.positionOf = positionOf;
    this.entryOf = entryOf;
    return fresh;
  }
}

/**
 * `list.splice(at, count, ...items)` without spreading `items` into arguments, which overflows the stack for the tens
 * of thousands of ranks a SuperPoD pasted in brings.
 */
export function replaceRange<T>(list: T[], at: number, count: number, items: readonly T[]): void {
  if (items.length <= 1024) {
    list.splice(at, count, ...items);
    return;
  }
  const tail = list.splice(at + count);
  list.length = at;
  for (const item of items) list.push(item);
  for (const item of tail) list.push(item);
}

/** A pointer into a list, or the same without its slash (how a read names a field in its message). */
const LIST_PATHS = { rank_list: /^(\/?rank_list\/)(\d+)/, server_list: /^(\/?server_list\/)(\d+)/ };

/**
 * Renumbers the paths into `list` (rank_list, or a "1.x" table's server_list) a kept finding names (its own and an
 * "other" in its message) after a splice: an entry index at or past `from` (the end of the removed stretch) moves by
 * `shift`. Findings that name a removed entry are worked out again by the caller, so none is renumbered into the
 * wrong entry.
 */
export function shiftPaths(findings: readonly Finding[] | undefined, from: number, shift: number, list: keyof typeof LIST_PATHS = "rank_list"): void {
  if (findings === undefined || shift === 0) return;
  const pattern = LIST_PATHS[list];
  const move = (path: string): string => {
    const match = pattern.exec(path);
    if (match === null) return path;
    const index = Number(match[2]);
    return index < from ? path : `${match[1]}${index + shift}${path.slice(match[0].length)}`;
  };
  for (const finding of findings) {
    finding.path = move(finding.path);
    const { params } = finding;
    for (const name in params) {
      const value = params[name];
      if (typeof value === "string" && pattern.test(value)) finding.params = { ...finding.params, [name]: move(value) };
    }
  }
}
