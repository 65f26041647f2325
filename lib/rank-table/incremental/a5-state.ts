/**
 * Incremental validation of a "2.0" table (the rules of checks/a5.ts), for the editor's worker: validated once in
 * full, then, for a table that differs from the last one only in some entries of rank_list (applyEdit shares every
 * other entry), only the findings those entries can change are worked out again. The rules fall in four kinds:
 *
 * - read and local (RT002–RT004, RT103 of a rank; RT104, RT105, RT109, RT110, RT112–RT123): one rank's own fields,
 *   kept per entry / per rank and recomputed for the edited rank only;
 * - uniqueness across the table (RT106/RT107 rank_id, RT124 addresses): holders per key in document order; an edit
 *   re-checks its own rank, and every holder of a key only when the key's first holder (named in "other") changes;
 * - per AI Server (RT108 contiguous ranks, RT111 local_id): the members of each net_layer 0 instance; an edit
 *   re-checks the servers its rank left and joined;
 * - the header (version, status, the table's own fields, RT100–RT102): read again alone after an edit outside
 *   rank_list, and after ranks are added or removed (RT100/RT101 count the entries).
 *
 * Ranks added or removed (a stretch of rank_list replaced, entry-diff.ts) are taken out of and put into the indexes
 * like edited ones; the indexes hold order keys (rank-order.ts), so the ranks after them keep their index entries,
 * and only the pointers of kept findings after the stretch are renumbered. The number of ranks is what RT107
 * depends on: when it changes, the ranks with an RT107 and the holders of the ids that crossed the bound are
 * checked again.
 *
 * The report lists the findings in the full validator's order: header, reads by entry, RT100–RT102, local rules by
 * rank, RT106/RT107 by rank, servers by their first rank, RT124 by rank.
 */
import { A5_VERSION } from "../a5-model";
import { readA5Entry, readA5Root, type A5AddressView, type A5RankView } from "../a5-view";
import { checkLevels, checkRankCount, checkRankFields, checkServer } from "../checks/a5";
import { checkStatus } from "../checks/header";
import type { Findings, Finding } from "../findings";
import { isJsonObject, type JsonObject, type JsonValue, type Lang, type ValidationReport } from "../model";
import type { ReportLimits } from "../../report-limits";
import { ViewReader } from "../table-view";
import { diffEntries } from "./entry-diff";
import { addressCount, AddressIndex, newTouched, noteFirst, type Touched } from "./a5-addresses";
import { addHolder, firstHolder, holderList, removeHolder, type Holders } from "./holders";
import { RankOrder, replaceRange, shiftPaths } from "./rank-order";
import { ReportBuilder, scratchFindings, takeSince, Tally } from "./tally";

const isWhole = (value: number | undefined): value is number => value !== undefined && Number.isInteger(value) && value >= 0;
const serverOf = (rank: A5RankView) => (rank.levels[0]?.netLayer === 0 ? rank.levels[0].netInstanceId : undefined);
/**
 * More changed entries than this (or than an eighth of the table, whichever is more) and a full rebuild is cheaper
 * than re-checking them one by one: a changed rank costs about what building costs per rank, plus the scans of the
 * whole table a resize makes. A SuperPoD of 8,192 ranks added to or removed from a large table stays incremental.
 */
const MAX_CHANGED = 4096;

type PerRank = (Finding[] | undefined)[];

export class A5State {
  private readonly sink: Findings = scratchFindings();
  private readonly reader = new ViewReader(this.sink);
  /** Where the findings of views read again go (to be dropped): not `sink`, which may hold a check's findings. */
  private readonly rereadSink: Findings = scratchFindings();
  private readonly rereader = new ViewReader(this.rereadSink);
  private readonly tally = new Tally();
  private head: Finding[] = [];
  private countFindings: Finding[] | undefined;
  private entries: readonly JsonValue[] = [];
  /** By entry index. */
  private reads: PerRank = [];
  private order = new RankOrder([], 1);
  /** By rank position. */
  private local: PerRank = [];
  private ids: PerRank = [];
  private addressFindings: PerRank = [];
  /** Holders are order keys (rank-order.ts), not positions. */
  private readonly rankHolders = new Map<number, Holders>();
  private readonly members = new Map<string, Holders>();
  private readonly serverFindings = new Map<string, Finding[]>();
  private readonly layerOne = new Map<string, number>();
  private readonly addresses = new AddressIndex();
  /** Rank views (by position) of the current build or update, read again from their entries when not there. */
  private views = new Map<number, A5RankView>();
  /** Every rank view, while the state is built. */
  private built: A5RankView[] | undefined;

  private constructor(
    private root: JsonObject,
    private readonly isA5Root: (root: JsonObject) => boolean,
  ) {}

  /** The state of a "2.0" table, validated in full; undefined when the table is not one. */
  static build(table: JsonValue, isA5Root: (root: JsonObject) => boolean): A5State | undefined {
    if (!isJsonObject(table) || !isA5Root(table)) return undefined;
    const state = new A5State(table, isA5Root);
    state.buildAll();
    return state;
  }

  private get total(): number {
    return this.order.size;
  }

  /**
   * The header's findings (version, status, the table's own fields, rank_list's shape, rank_count), read before
   * the ranks as checkTable and checkA5Table do; none of them depends on a rank's content, nor a rank's on them.
   */
  private readHeader(): ReturnType<typeof readA5Root> {
    const { sink, reader, root } = this;
    this.tally.remove(this.head);
    reader.scalar(root.version, "version", { path: "" });
    const status = reader.scalar(root.status, "status", { path: "" });
    if (status !== undefined) checkStatus(status, sink);
    const header = readA5Root(root, reader, sink);
    this.head = sink.list.splice(0);
    this.tally.add(this.head);
    return header;
  }

  /** RT100–RT102: rank_count against rank_list (checkRankCount reads the counts, not the ranks). */
  private checkCount(view: ReturnType<typeof readA5Root>["view"]): void {
    this.tally.remove(this.countFindings);
    checkRankCount(view, this.sink, this.root);
    this.countFindings = takeSince(this.sink, 0);
    this.tally.add(this.countFindings);
  }

  private buildAll(): void {
    const { sink, reader } = this;
    const { view, rankList } = this.readHeader();
    this.entries = rankList ?? [];
    const count = this.entries.length;
    this.reads = new Array(count).fill(undefined);
    const isRank = new Array<boolean>(count);
    const ranks: A5RankView[] = [];
    for (let index = 0; index < count; index++) {
      const rank = readA5Entry(this.entries[index]!, index, reader, sink);
      this.reads[index] = takeSince(sink, 0);
      isRank[index] = rank !== undefined;
      if (rank !== undefined) ranks.push(rank);
    }
    view.ranks = ranks;
    this.checkCount(view);
    this.local = new Array(ranks.length).fill(undefined);
    this.ids = new Array(ranks.length).fill(undefined);
    this.addressFindings = new Array(ranks.length).fill(undefined);
    let most = 0;
    for (const rank of ranks) most = Math.max(most, addressCount(rank));
    this.addresses.stride = 2 ** Math.ceil(Math.log2(most + 1));
    this.order = new RankOrder(isRank, this.addresses.stride);
    this.built = ranks;
    // One pass in document order: a key's first holder is known when a later one is met, as in checkA5.
    for (let position = 0; position < ranks.length; position++) {
      const rank = ranks[position]!;
      this.replace(this.local, position, this.localFindings(rank));
      if (isWhole(rank.rankId)) {
        addHolder(this.rankHolders, rank.rankId, this.order.key(position));
        this.checkRankId(position, rank.rankId);
      }
      this.index(position, rank, 1, true);
    }
    for (const server of this.members.keys()) this.checkServerOf(server);
    for (const list of this.reads) this.tally.add(list);
    this.built = undefined;
  }

  /**
   * Adds (1) or removes (−1) a rank's server membership, net_layer 1 instances and addresses; `check`: and finds its
   * RT124s in the same walk (while building, when every rank before it, and none after, is filed).
   */
  private index(position: number, rank: A5RankView, sign: 1 | -1, check = false): void {
    const key = this.order.key(position);
    const server = serverOf(rank);
    if (server !== undefined) (sign > 0 ? addHolder : removeHolder)(this.members, server, key);
    for (const level of rank.levels) {
      if (level.netLayer !== 1 || level.netInstanceId === undefined) continue;
      const count = (this.layerOne.get(level.netInstanceId) ?? 0) + sign;
      if (count > 0) this.layerOne.set(level.netInstanceId, count);
      else this.layerOne.delete(level.netInstanceId);
    }
    const base = key * this.addresses.stride;
    if (!check) {
      this.addresses.each(rank, (map, address, ordinal) => (sign > 0 ? addHolder : removeHolder)(map, address, base + ordinal));
      return;
    }
    this.addresses.each(rank, (map, text, ordinal, address, eid) => {
      addHolder(map, text, base + ordinal);
      this.checkAddress(position, firstHolder(map.get(text)!), base + ordinal, address, eid);
    });
    this.replace(this.addressFindings, position, takeSince(this.sink, 0));
  }

  private view(position: number): A5RankView {
    let rank = this.built?.[position] ?? this.views.get(position);
    if (rank === undefined) {
      const entry = this.order.entry(position);
      rank = readA5Entry(this.entries[entry]!, entry, this.rereader, this.rereadSink)!;
      this.rereadSink.list.length = 0;
      this.views.set(position, rank);
    }
    return rank;
  }

  private path(position: number): string {
    return `/rank_list/${this.order.entry(position)}`;
  }

  private localFindings(rank: A5RankView): Finding[] | undefined {
    checkRankFields(rank, this.sink);
    checkLevels(rank, this.sink);
    return takeSince(this.sink, 0);
  }

  private replace(list: PerRank, at: number, findings: Finding[] | undefined): void {
    this.tally.remove(list[at]);
    list[at] = findings;
    this.tally.add(findings);
  }

  /** RT107 and RT106 of one rank (checkRankIds): against the first rank that holds its rank_id. */
  private checkRankId(position: number, id: number): void {
    const first = firstHolder(this.rankHolders.get(id)!);
    const own = this.order.key(position);
    if (id < this.total && first === own) {
      this.replace(this.ids, position, undefined);
      return;
    }
    const at = `${this.path(position)}/rank_id`;
    if (id >= this.total) this.sink.add("RT107", at, { value: id, max: this.total - 1, count: this.total });
    if (first !== own) this.sink.add("RT106", at, { value: id, other: this.path(this.order.position(first)) });
    this.replace(this.ids, position, takeSince(this.sink, 0));
  }

  /** RT124 of one rank (checkAddressesUnique): each address against the first address filed under its key. */
  private checkAddresses(position: number): void {
    const base = this.order.key(position) * this.addresses.stride;
    this.addresses.each(this.view(position), (map, key, ordinal, address, eid) => this.checkAddress(position, firstHolder(map.get(key)!), base + ordinal, address, eid));
    this.replace(this.addressFindings, position, takeSince(this.sink, 0));
  }

  /** One address's RT124, given the first holder of its key: none when it is that holder or in the same rank. */
  private checkAddress(position: number, first: number, holder: number, address: A5AddressView, eid: boolean): void {
    const owner = Math.floor(first / this.addresses.stride);
    if (first === holder || owner === this.order.key(position)) return;
    const other = this.addressAt(this.order.position(owner), first - owner * this.addresses.stride);
    this.sink.addMessage("RT124", "RT124", `${address.path}/addr`, { value: address.addr!, other: other.path }, eid ? "error" : "warning");
  }

  private addressAt(position: number, ordinal: number): A5AddressView {
    let left = ordinal;
    for (const level of this.view(position).levels) {
      if (left < level.addresses.length) return level.addresses[left]!;
      left -= level.addresses.length;
    }
    throw new Error(`no address ${ordinal} in rank ${position}`);
  }

  /** RT108 and RT111 of one AI Server (checkServer), over its ranks in document order. */
  private checkServerOf(server: string): void {
    this.tally.remove(this.serverFindings.get(server));
    this.serverFindings.delete(server);
    const members = this.members.get(server);
    if (members === undefined) return;
    checkServer(server, holderList(members).map((key) => this.view(this.order.position(key))), this.sink);
    const findings = takeSince(this.sink, 0);
    if (findings === undefined) return;
    this.serverFindings.set(server, findings);
    this.tally.add(findings);
  }

  /**
   * Brings the state to `next`; false when `next` is not the same table with some rank_list entries changed,
   * added or removed (the caller then builds a new state).
   */
  update(next: JsonValue): boolean {
    if (!isJsonObject(next)) return false;
    const previous = this.root;
    const keys = Object.keys(previous);
    const nextKeys = Object.keys(next);
    let headerChanged = keys.length !== nextKeys.length;
    for (let i = 0; i < keys.length && !headerChanged; i++) {
      const key = keys[i]!;
      headerChanged = key !== nextKeys[i] || (key !== "rank_list" && previous[key] !== next[key]);
    }
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

  report(lang: Lang, limits: Readonly<ReportLimits> | undefined): ValidationReport {
    const builder = new ReportBuilder(lang, limits);
    builder.addAll(this.head);
    for (let i = 0; i < this.reads.length && builder.open; i++) builder.addAll(this.reads[i]);
    builder.addAll(this.countFindings);
    for (let i = 0; i < this.total && builder.open; i++) builder.addAll(this.local[i]);
    for (let i = 0; i < this.total && builder.open; i++) builder.addAll(this.ids[i]);
    if (builder.open) {
      const servers = [...this.serverFindings.keys()].sort((a, b) => firstHolder(this.members.get(a)!) - firstHolder(this.members.get(b)!));
      for (const server of servers) builder.addAll(this.serverFindings.get(server));
    }
    for (let i = 0; i < this.total && builder.open; i++) builder.addAll(this.addressFindings[i]);
    const report: ValidationReport = {
      valid: this.tally.errors === 0,
      version: A5_VERSION,
      mode: this.layerOne.size > 0 ? "super-pod" : "ai-server",
      layout: A5_VERSION,
      stats: { superPods: this.layerOne.size, servers: this.members.size, devices: this.total },
      issues: builder.issues,
    };
    const omitted = builder.omitted(this.tally);
    if (omitted) report.omitted = omitted;
    return report;
  }
}
