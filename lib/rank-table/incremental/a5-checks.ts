/**
 * What the incremental "2.0" validation (a5-state.ts) keeps and how it checks it: the findings of the rules of
 * checks/a5.ts, filed per entry, per rank, per key and per AI Server, built in one pass over a table, and each kind
 * re-checkable for one rank, key or server. The rules fall in four kinds:
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
 * The report lists the findings in the full validator's order: header, reads by entry, RT100–RT102, local rules by
 * rank, RT106/RT107 by rank, servers by their first rank, RT124 by rank.
 */
import { A5_VERSION } from "../a5-model";
import { readA5Entry, readA5Root, type A5AddressView, type A5RankView } from "../a5-view";
import { checkLevels, checkRankCount, checkRankFields, checkServer } from "../checks/a5";
import { checkStatus } from "../checks/header";
import type { Findings, Finding } from "../findings";
import type { JsonObject, JsonValue, Lang, ValidationReport } from "../model";
import type { ReportLimits } from "../../report-limits";
import { ViewReader } from "../table-view";
import { addressCount, AddressIndex } from "./a5-addresses";
import { addHolder, firstHolder, holderList, removeHolder, type Holders } from "./holders";
import { RankOrder } from "./rank-order";
import { ReportBuilder, scratchFindings, takeSince, Tally } from "./tally";

export const isWhole = (value: number | undefined): value is number => value !== undefined && Number.isInteger(value) && value >= 0;
export const serverOf = (rank: A5RankView) => (rank.levels[0]?.netLayer === 0 ? rank.levels[0].netInstanceId : undefined);

export type PerRank = (Finding[] | undefined)[];

export abstract class A5Checks {
  protected readonly sink: Findings = scratchFindings();
  protected readonly reader = new ViewReader(this.sink);
  /** Where the findings of views read again go (to be dropped): not `sink`, which may hold a check's findings. */
  protected readonly rereadSink: Findings = scratchFindings();
  protected readonly rereader = new ViewReader(this.rereadSink);
  protected readonly tally = new Tally();
  protected head: Finding[] = [];
  protected countFindings: Finding[] | undefined;
  protected entries: readonly JsonValue[] = [];
  /** By entry index. */
  protected reads: PerRank = [];
  protected order = new RankOrder([], 1);
  /** By rank position. */
  protected local: PerRank = [];
  protected ids: PerRank = [];
  protected addressFindings: PerRank = [];
  /** Holders are order keys (rank-order.ts), not positions. */
  protected readonly rankHolders = new Map<number, Holders>();
  protected readonly members = new Map<string, Holders>();
  protected readonly serverFindings = new Map<string, Finding[]>();
  protected readonly layerOne = new Map<string, number>();
  protected readonly addresses = new AddressIndex();
  /** Rank views (by position) of the current build or update, read again from their entries when not there. */
  protected views = new Map<number, A5RankView>();
  /** Every rank view, while the state is built. */
  protected built: A5RankView[] | undefined;

  protected constructor(protected root: JsonObject) {}

  protected get total(): number {
    return this.order.size;
  }

  /**
   * The header's findings (version, status, the table's own fields, rank_list's shape, rank_count), read before
   * the ranks as checkTable and checkA5Table do; none of them depends on a rank's content, nor a rank's on them.
   */
  protected readHeader(): ReturnType<typeof readA5Root> {
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
  protected checkCount(view: ReturnType<typeof readA5Root>["view"]): void {
    this.tally.remove(this.countFindings);
    checkRankCount(view, this.sink, this.root);
    this.countFindings = takeSince(this.sink, 0);
    this.tally.add(this.countFindings);
  }

  protected buildAll(): void {
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
  protected index(position: number, rank: A5RankView, sign: 1 | -1, check = false): void {
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
      this.checkAddress(position, addHolder(map, text, base + ordinal), base + ordinal, address, eid);
    });
    this.replace(this.addressFindings, position, takeSince(this.sink, 0));
  }

  protected view(position: number): A5RankView {
    let rank = this.built?.[position] ?? this.views.get(position);
    if (rank === undefined) {
      const entry = this.order.entry(position);
      rank = readA5Entry(this.entries[entry]!, entry, this.rereader, this.rereadSink)!;
      this.rereadSink.list.length = 0;
      this.views.set(position, rank);
    }
    return rank;
  }

  protected path(position: number): string {
    return `/rank_list/${this.order.entry(position)}`;
  }

  protected localFindings(rank: A5RankView): Finding[] | undefined {
    checkRankFields(rank, this.sink);
    checkLevels(rank, this.sink);
    return takeSince(this.sink, 0);
  }

  protected replace(list: PerRank, at: number, findings: Finding[] | undefined): void {
    this.tally.remove(list[at]);
    list[at] = findings;
    this.tally.add(findings);
  }

  /** RT107 and RT106 of one rank (checkRankIds): against the first rank that holds its rank_id. */
  protected checkRankId(position: number, id: number): void {
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
  protected checkAddresses(position: number): void {
    const base = this.order.key(position) * this.addresses.stride;
    this.addresses.each(this.view(position), (map, key, ordinal, address, eid) => this.checkAddress(position, firstHolder(map.get(key)!), base + ordinal, address, eid));
    this.replace(this.addressFindings, position, takeSince(this.sink, 0));
  }

  /** One address's RT124, given the first holder of its key: none when it is that holder or in the same rank. */
  protected checkAddress(position: number, first: number, holder: number, address: A5AddressView, eid: boolean): void {
    const owner = Math.floor(first / this.addresses.stride);
    if (first === holder || owner === this.order.key(position)) return;
    const other = this.addressAt(this.order.position(owner), first - owner * this.addresses.stride);
    this.sink.addMessage("RT124", "RT124", `${address.path}/addr`, { value: address.addr!, other: other.path }, eid ? "error" : "warning");
  }

  protected addressAt(position: number, ordinal: number): A5AddressView {
    let left = ordinal;
    for (const level of this.view(position).levels) {
      if (left < level.addresses.length) return level.addresses[left]!;
      left -= level.addresses.length;
    }
    throw new Error(`no address ${ordinal} in rank ${position}`);
  }

  /** RT108 and RT111 of one AI Server (checkServer), over its ranks in document order. */
  protected checkServerOf(server: string): void {
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