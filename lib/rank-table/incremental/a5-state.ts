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
 *   rank_list that keeps the same ranks; the number of entries is what RT107 depends on, so a rank added, removed
 *   or turned into a non-object (positions and pointers shift) rebuilds the state in full.
 *
 * The report lists the findings in the full validator's order: header, reads by entry, RT100–RT102, local rules by
 * rank, RT106/RT107 by rank, servers by their first rank, RT124 by rank.
 */
import { A5_VERSION } from "../a5-model";
import { readA5Entry, readA5Root, type A5AddressView, type A5RankView } from "../a5-view";
import { checkLevels, checkRankCount, checkRankFields, checkServer, eidForm } from "../checks/a5";
import { checkStatus } from "../checks/header";
import type { Findings, Finding } from "../findings";
import { isJsonObject, type JsonObject, type JsonValue, type Lang, type ValidationReport } from "../model";
import type { ReportLimits } from "../../report-limits";
import { ViewReader } from "../table-view";
import { jsonEqual } from "./json-equal";
import { addHolder, firstHolder, holderList, removeHolder, type Holders } from "./holders";
import { ReportBuilder, scratchFindings, takeSince, Tally } from "./tally";

const isWhole = (value: number | undefined): value is number => value !== undefined && Number.isInteger(value) && value >= 0;
const serverOf = (rank: A5RankView) => (rank.levels[0]?.netLayer === 0 ? rank.levels[0].netInstanceId : undefined);
/** More changed entries than this and a full rebuild is cheaper than re-checking them one by one. */
const MAX_CHANGED = 4096;

type AddressVisit = (map: Map<string, Holders>, key: string, ordinal: number, address: A5AddressView, eid: boolean) => void;

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
  private reads: (Finding[] | undefined)[] = [];
  /** Entry index → rank position (ranks are the entries that are objects), −1 for the others; and back. */
  private positionOf = new Int32Array(0);
  private entryOf = new Int32Array(0);
  private total = 0;
  private local: (Finding[] | undefined)[] = [];
  private ids: (Finding[] | undefined)[] = [];
  private addressFindings: (Finding[] | undefined)[] = [];
  private readonly rankHolders = new Map<number, Holders>();
  private readonly members = new Map<string, Holders>();
  private readonly serverFindings = new Map<string, Finding[]>();
  private readonly layerOne = new Map<string, number>();
  private readonly byEid = new Map<string, Holders>();
  private readonly byLayer = new Map<number | undefined, Map<string, Holders>>();
  /** An address holder is position × stride + its ordinal in the rank (a power of two above any rank's count). */
  private stride = 1;
  /** Rank views of the current build or update, read again from their entries when not there. */
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
    this.positionOf = new Int32Array(count).fill(-1);
    const ranks: A5RankView[] = [];
    for (let index = 0; index < count; index++) {
      const rank = readA5Entry(this.entries[index]!, index, reader, sink);
      this.reads[index] = takeSince(sink, 0);
      if (rank === undefined) continue;
      this.positionOf[index] = ranks.length;
      ranks.push(rank);
    }
    view.ranks = ranks;
    this.checkCount(view);
    this.total = ranks.length;
    this.entryOf = new Int32Array(ranks.length);
    this.local = new Array(ranks.length).fill(undefined);
    this.ids = new Array(ranks.length).fill(undefined);
    this.addressFindings = new Array(ranks.length).fill(undefined);
    let most = 0;
    for (const rank of ranks) most = Math.max(most, this.addressCount(rank));
    this.stride = 2 ** Math.ceil(Math.log2(most + 1));
    this.built = ranks;
    // One pass in document order: a key's first holder is known when a later one is met, as in checkA5.
    for (let position = 0; position < ranks.length; position++) {
      const rank = ranks[position]!;
      this.entryOf[position] = rank.index;
      this.replace(this.local, position, this.localFindings(rank));
      if (isWhole(rank.rankId)) {
        addHolder(this.rankHolders, rank.rankId, position);
        this.checkRankId(position, rank.rankId);
      }
      this.index(position, rank, 1, true);
    }
    for (const server of this.members.keys()) this.checkServerOf(server);
    for (const list of this.reads) this.tally.add(list);
    this.built = undefined;
  }

  private addressCount(rank: A5RankView): number {
    let count = 0;
    for (const level of rank.levels) count += level.addresses.length;
    return count;
  }

  /** Visits each address of a rank that has an addr, with the map and key RT124 files it under. */
  private eachAddress(rank: A5RankView, visit: AddressVisit): void {
    let ordinal = 0;
    for (const level of rank.levels) {
      for (const address of level.addresses) {
        const at = ordinal++;
        const { addr, addrType } = address;
        if (addr === undefined) continue;
        const eid = addrType === "EID" || addrType?.toUpperCase() === "EID";
        let map = eid ? this.byEid : this.byLayer.get(level.netLayer);
        if (map === undefined) this.byLayer.set(level.netLayer, (map = new Map()));
        visit(map, eid && eidForm(addr) === 2 ? addr.toLowerCase() : addr, at, address, eid);
      }
    }
  }

  /**
   * Adds (1) or removes (−1) a rank's server membership, net_layer 1 instances and addresses; `check`: and finds its
   * RT124s in the same walk (while building, when every rank before it, and none after, is filed).
   */
  private index(position: number, rank: A5RankView, sign: 1 | -1, check = false): void {
    const server = serverOf(rank);
    if (server !== undefined) (sign > 0 ? addHolder : removeHolder)(this.members, server, position);
    for (const level of rank.levels) {
      if (level.netLayer !== 1 || level.netInstanceId === undefined) continue;
      const count = (this.layerOne.get(level.netInstanceId) ?? 0) + sign;
      if (count > 0) this.layerOne.set(level.netInstanceId, count);
      else this.layerOne.delete(level.netInstanceId);
    }
    const base = position * this.stride;
    if (!check) {
      this.eachAddress(rank, (map, key, ordinal) => (sign > 0 ? addHolder : removeHolder)(map, key, base + ordinal));
      return;
    }
    this.eachAddress(rank, (map, key, ordinal, address, eid) => {
      addHolder(map, key, base + ordinal);
      this.checkAddress(position, firstHolder(map.get(key)!), base + ordinal, address, eid);
    });
    this.replace(this.addressFindings, position, takeSince(this.sink, 0));
  }

  private view(position: number): A5RankView {
    let rank = this.built?.[position] ?? this.views.get(position);
    if (rank === undefined) {
      const entry = this.entryOf[position]!;
      rank = readA5Entry(this.entries[entry]!, entry, this.rereader, this.rereadSink)!;
      this.rereadSink.list.length = 0;
      this.views.set(position, rank);
    }
    return rank;
  }

  private path(position: number): string {
    return `/rank_list/${this.entryOf[position]}`;
  }

  private localFindings(rank: A5RankView): Finding[] | undefined {
    checkRankFields(rank, this.sink);
    checkLevels(rank, this.sink);
    return takeSince(this.sink, 0);
  }

  private replace(list: (Finding[] | undefined)[], at: number, findings: Finding[] | undefined): void {
    this.tally.remove(list[at]);
    list[at] = findings;
    this.tally.add(findings);
  }

  /** RT107 and RT106 of one rank (checkRankIds): against the first rank that holds its rank_id. */
  private checkRankId(position: number, id: number): void {
    const first = firstHolder(this.rankHolders.get(id)!);
    if (id < this.total && first === position) {
      this.replace(this.ids, position, undefined);
      return;
    }
    const at = `${this.path(position)}/rank_id`;
    if (id >= this.total) this.sink.add("RT107", at, { value: id, max: this.total - 1, count: this.total });
    if (first !== position) this.sink.add("RT106", at, { value: id, other: this.path(first) });
    this.replace(this.ids, position, takeSince(this.sink, 0));
  }

  /** RT124 of one rank (checkAddressesUnique): each address against the first address filed under its key. */
  private checkAddresses(position: number): void {
    const base = position * this.stride;
    this.eachAddress(this.view(position), (map, key, ordinal, address, eid) => this.checkAddress(position, firstHolder(map.get(key)!), base + ordinal, address, eid));
    this.replace(this.addressFindings, position, takeSince(this.sink, 0));
  }

  /** One address's RT124, given the first holder of its key: none when it is that holder or in the same rank. */
  private checkAddress(position: number, first: number, holder: number, address: A5AddressView, eid: boolean): void {
    const owner = Math.floor(first / this.stride);
    if (first === holder || owner === position) return;
    const other = this.addressAt(owner, first % this.stride);
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
    checkServer(server, holderList(members).map((position) => this.view(position)), this.sink);
    const findings = takeSince(this.sink, 0);
    if (findings === undefined) return;
    this.serverFindings.set(server, findings);
    this.tally.add(findings);
  }

  /**
   * Brings the state to `next`; false when `next` is not the same table with some rank_list entries changed (the
   * caller then builds a new state).
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
    const list = previous.rank_list;
    if (after !== list) {
      if (!Array.isArray(after) || !Array.isArray(list) || after.length !== before.length) return false;
      const changed: number[] = [];
      for (let index = 0; index < after.length; index++) {
        // The same entry (applyEdit shares them), or an equal one (the whole table sent again as a clone).
        if (after[index] === before[index] || jsonEqual(after[index], before[index])) continue;
        if (changed.length === MAX_CHANGED || isJsonObject(after[index]) !== isJsonObject(before[index])) return false;
        changed.push(index);
      }
      this.entries = after;
      for (const index of changed) if (!this.updateEntry(index, before[index]!)) return false;
    }
    this.root = next;
    // A header edit (status, rank_count, an unknown field…): only the header is read again.
    if (headerChanged) this.checkCount(this.readHeader().view);
    return true;
  }

  private updateEntry(index: number, oldEntry: JsonValue): boolean {
    const { sink, reader } = this;
    const position = this.positionOf[index]!;
    this.views = new Map();
    const fresh = readA5Entry(this.entries[index]!, index, reader, sink);
    this.replace(this.reads, index, takeSince(sink, 0));
    if (fresh === undefined) return true;
    const old = readA5Entry(oldEntry, index, this.rereader, this.rereadSink)!;
    this.rereadSink.list.length = 0;
    if (this.addressCount(fresh) >= this.stride) return false;
    this.views.set(position, fresh);
    this.replace(this.local, position, this.localFindings(fresh));
    this.updateRankId(position, old.rankId, fresh.rankId);
    const sameLevels = (oldEntry as JsonObject).level_list === (this.entries[index] as JsonObject).level_list;
    if (!sameLevels) this.updateLevels(position, old, fresh);
    const servers = new Set([serverOf(old), serverOf(fresh)]);
    for (const server of servers) if (server !== undefined) this.checkServerOf(server);
    this.views = new Map();
    return true;
  }

  private updateRankId(position: number, oldId: number | undefined, newId: number | undefined): void {
    const from = isWhole(oldId) ? oldId : undefined;
    const to = isWhole(newId) ? newId : undefined;
    if (from === to) return;
    if (from !== undefined) {
      const wasFirst = firstHolder(this.rankHolders.get(from)!) === position;
      removeHolder(this.rankHolders, from, position);
      if (wasFirst) for (const holder of holderList(this.rankHolders.get(from))) this.checkRankId(holder, from);
    }
    if (to === undefined) {
      this.replace(this.ids, position, undefined);
      return;
    }
    addHolder(this.rankHolders, to, position);
    const holders = this.rankHolders.get(to)!;
    // Now the first holder, it is the "other" of every other holder; otherwise only its own findings change.
    if (firstHolder(holders) === position) for (const holder of holderList(holders)) this.checkRankId(holder, to);
    else this.checkRankId(position, to);
  }

  private updateLevels(position: number, old: A5RankView, fresh: A5RankView): void {
    const base = position * this.stride;
    const affected = new Set<number>([position]);
    // Keys whose first holder is (or was) this rank: every holder of those names it, or named it, as "other".
    const firstOf: [Map<string, Holders>, string][] = [];
    this.eachAddress(old, (map, key) => {
      if (Math.floor(firstHolder(map.get(key)!) / this.stride) === position) firstOf.push([map, key]);
    });
    this.index(position, old, -1);
    this.index(position, fresh, 1);
    this.eachAddress(fresh, (map, key, ordinal) => {
      if (firstHolder(map.get(key)!) === base + ordinal) firstOf.push([map, key]);
    });
    for (const [map, key] of firstOf) for (const holder of holderList(map.get(key))) affected.add(Math.floor(holder / this.stride));
    for (const rank of affected) this.checkAddresses(rank);
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
