/**
 * Incremental validation of a "2.0" table, for the editor's worker: validated once in full (a5-checks.ts), then, for
 * a table that differs from the last one only in some entries of rank_list (applyEdit shares every other entry),
 * only the findings those entries can change are worked out again; after an edit outside rank_list, and after ranks
 * are added or removed (RT100/RT101 count the entries), the header is read again alone.
 *
 * Ranks added or removed (a stretch of rank_list replaced, entry-diff.ts) are taken out of and put into the indexes
 * like edited ones; the indexes hold order keys (rank-order.ts), so the ranks after them keep their index entries,
 * and only the pointers of kept findings after the stretch are renumbered. The number of ranks is what RT107
 * depends on: when it changes, the ranks with an RT107 and the holders of the ids that crossed the bound are
 * checked again.
 */
import { readA5Entry, type A5RankView } from "../a5-view";
import { isJsonObject, type JsonObject, type JsonValue } from "../model";
import { A5Checks, isWhole, serverOf } from "./a5-checks";
import { addressCount, newTouched, noteFirst, type Touched } from "./a5-addresses";
import { changedBesides, diffEntries } from "./entry-diff";
import { addHolder, firstHolder, holderList, removeHolder } from "./holders";
import { replaceRange, shiftPaths } from "./rank-order";
import { takeSince } from "./tally";

/**
 * More changed entries than this (or than an eighth of the table, whichever is more) and a full rebuild is cheaper
 * than re-checking them one by one: a changed rank costs about what building costs per rank, plus the scans of the
 * whole table a resize makes. A SuperPoD of 8,192 ranks added to or removed from a large table stays incremental.
 */
const MAX_CHANGED = 4096;

export class A5State extends A5Checks {
  private constructor(
    root: JsonObject,
    private readonly isA5Root: (root: JsonObject) => boolean,
  ) {
    super(root);
  }

  /** The state of a "2.0" table, validated in full; undefined when the table is not one. */
  static build(table: JsonValue, isA5Root: (root: JsonObject) => boolean): A5State | undefined {
    if (!isJsonObject(table) || !isA5Root(table)) return undefined;
    const state = new A5State(table, isA5Root);
    state.buildAll();
    return state;
  }

  /**
   * Brings the state to `next`; false when `next` is not the same table with some rank_list entries changed,
   * added or removed (the caller then builds a new state).
   */
  update(next: JsonValue): boolean {
    if (!isJsonObject(next)) return false;
    const previous = this.root;
    let headerChanged = changedBesides(previous, next, "rank_list");
    if (headerChanged && !this.isA5Root(next)) return false;
    const before = this.entries;
    const after = next.rank_list;
    if (after !== previous.rank_list) {
      if (!Array.isArray(after) || !Array.isArray(previous.rank_list)) return false;
      const change = diffEntries(before, after, Math.max(MAX_CHANGED, before.length >> 3));
      if (change === undefined) return false;
      this.entries = after;
      if (change.kind === "entries") {
        if (!this.updateEntries(change.changed, before)) return false;
      } else {
        if (!this.splice(change.at, change.removed, change.inserted, before)) return false;
        // RT100/RT101 count the entries.
        headerChanged = true;
      }
    }
    this.root = next;
    // A header edit (status, rank_count, an unknown field…): only the header is read again.
    if (headerChanged) this.checkCount(this.readHeader().view);
    return true;
  }

  /** Entries changed in place (none became or stopped being an object): out of the indexes, back in, re-checked. */
  private updateEntries(changed: readonly number[], before: readonly JsonValue[]): boolean {
    const touched = newTouched();
    for (const index of changed) {
      const position = this.order.positionOfEntry(index);
      if (position < 0) continue;
      const levels = (before[index] as JsonObject).level_list !== (this.entries[index] as JsonObject).level_list;
      if (!levels) touched.keptLevels.add(position);
      this.takeOut(position, this.reread(before[index]!, index), touched, levels);
    }
    return this.putIn(changed, touched, this.total);
  }

  /**
   * Entries [at, at + removed) of the old rank_list replaced by [at, at + inserted) of the new one: the removed
   * ranks leave the indexes, the ranks after them are renumbered (their keys stay), the inserted ones are read and
   * filed, and the keys and servers either touched are checked again.
   */
  private splice(at: number, removed: number, inserted: number, before: readonly JsonValue[]): boolean {
    const touched = newTouched();
    const totalBefore = this.total;
    const from = this.order.positionFrom(at);
    let position = from;
    for (let index = at; index < at + removed; index++) {
      this.tally.remove(this.reads[index]);
      if (this.order.positionOfEntry(index) < 0) continue;
      this.takeOut(position, this.reread(before[index]!, index), touched, true);
      for (const list of [this.local, this.ids, this.addressFindings]) this.tally.remove(list[position]);
      position++;
    }
    const removedRanks = position - from;
    const shapes: boolean[] = [];
    for (let index = at; index < at + inserted; index++) shapes.push(isJsonObject(this.entries[index]));
    const keys = this.order.splice({ at, removed, inserted: shapes });
    if (keys === undefined) return false;
    replaceRange(this.reads, at, removed, new Array<undefined>(inserted).fill(undefined));
    for (const list of [this.local, this.ids, this.addressFindings]) replaceRange(list, from, removedRanks, new Array<undefined>(keys.length).fill(undefined));
    // Kept findings after the stretch name entries that moved; findings before it never name a later rank.
    const shift = inserted - removed;
    if (shift !== 0) {
      for (let index = at + inserted; index < this.reads.length; index++) if (this.reads[index] !== undefined) shiftPaths(this.reads[index], at + removed, shift);
      for (const list of [this.local, this.ids, this.addressFindings]) for (let p = from + keys.length; p < list.length; p++) if (list[p] !== undefined) shiftPaths(list[p], at + removed, shift);
    }
    for (const findings of this.serverFindings.values()) shiftPaths(findings, at + removed, shift);
    return this.putIn(Array.from({ length: inserted }, (_, i) => at + i), touched, totalBefore);
  }

  private reread(entry: JsonValue, index: number): A5RankView {
    const rank = readA5Entry(entry, index, this.rereader, this.rereadSink)!;
    this.rereadSink.list.length = 0;
    return rank;
  }

  /** Takes a rank out of the indexes (its levels too when they changed), noting what the next check must cover. */
  private takeOut(position: number, old: A5RankView, touched: Touched, levels: boolean): void {
    if (isWhole(old.rankId)) {
      noteFirst(touched.ids, old.rankId, this.rankHolders);
      removeHolder(this.rankHolders, old.rankId, this.order.key(position));
    }
    const server = serverOf(old);
    if (server !== undefined) touched.servers.add(server);
    if (!levels) return;
    this.addresses.note(old, touched);
    touched.rekeyed.add(this.order.key(position));
    this.index(position, old, -1);
  }

  /** Reads the entries `indexes` of the new rank_list, files their ranks, and checks again what changed. */
  private putIn(indexes: readonly number[], touched: Touched, totalBefore: number): boolean {
    const { sink, reader } = this;
    this.views = new Map();
    const fresh: number[] = [];
    for (const index of indexes) {
      const rank = readA5Entry(this.entries[index]!, index, reader, sink);
      this.replace(this.reads, index, takeSince(sink, 0));
      if (rank === undefined) continue;
      if (addressCount(rank) >= this.addresses.stride) return false;
      const position = this.order.positionOfEntry(index);
      const key = this.order.key(position);
      fresh.push(position);
      this.views.set(position, rank);
      this.replace(this.local, position, this.localFindings(rank));
      if (isWhole(rank.rankId)) {
        noteFirst(touched.ids, rank.rankId, this.rankHolders);
        addHolder(this.rankHolders, rank.rankId, key);
      }
      const server = serverOf(rank);
      if (server !== undefined) touched.servers.add(server);
      if (touched.keptLevels.has(position)) continue;
      this.addresses.note(rank, touched);
      touched.rekeyed.add(key);
      this.index(position, rank, 1);
    }
    this.recheck(touched, fresh, totalBefore);
    this.views = new Map();
    return true;
  }

  /**
   * RT106/RT107 of the changed ranks, and of every holder of an id whose first holder changed; RT124 likewise; the
   * servers touched. When the number of ranks changed, RT107 names it: the ranks with one, and the holders of the
   * ids that crossed the bound, are checked again.
   */
  private recheck(touched: Touched, fresh: readonly number[], totalBefore: number): void {
    const total = this.total;
    if (total !== totalBefore) {
      for (let p = 0; p < total; p++) if (this.ids[p]?.some((finding) => finding.code === "RT107")) this.checkRankId(p, this.view(p).rankId!);
      for (let id = Math.min(total, totalBefore); id < Math.max(total, totalBefore); id++) touched.ids.set(id, Number.NaN);
    }
    for (const [id, first] of touched.ids) {
      const holders = this.rankHolders.get(id);
      if (holders === undefined) continue;
      const now = firstHolder(holders);
      if (now !== first || touched.rekeyed.has(now)) for (const holder of holderList(holders)) this.checkRankId(this.order.position(holder), id);
    }
    const affected = new Set<number>();
    for (const position of fresh) {
      const id = this.view(position).rankId;
      if (isWhole(id)) this.checkRankId(position, id);
      else this.replace(this.ids, position, undefined);
      if (!touched.keptLevels.has(position)) affected.add(position);
    }
    for (const [map, firsts] of touched.addresses) {
      for (const [text, first] of firsts) {
        const holders = map.get(text);
        const now = holders === undefined ? undefined : firstHolder(holders);
        if (now === undefined || (now === first && !touched.rekeyed.has(Math.floor(now / this.addresses.stride)))) continue;
        for (const holder of holderList(holders)) affected.add(this.order.position(Math.floor(holder / this.addresses.stride)));
      }
    }
    for (const position of affected) this.checkAddresses(position);
    for (const server of touched.servers) this.checkServerOf(server);
  }
}
