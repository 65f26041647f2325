/**
 * Incremental validation of a "1.0"/"1.2" table (server_list, super_pod_list), for the editor's worker: validated
 * once in full (v1-checks.ts), then, for a table whose server_list shares every entry but a few with the last one
 * (applyEdit replaces the server it edits; a server added or removed is a stretch of server_list replaced,
 * entry-diff.ts), only those servers are read again and taken out of and put into the holder indexes, and only
 * the servers whose keys, backup owners, counts or pod changed are checked again; the table-wide rules are worked
 * out again from the servers' summaries. Servers keep their order keys (rank-order.ts) when others are added or
 * removed before them; their views are renumbered and the pointers of their findings shifted.
 *
 * A change of version, of whether super_pod_list is there or a list, or of more servers than MAX_CHANGED, a server
 * given more devices than the device keys leave room for, and servers inserted where no order key is left between
 * two others (rank-order.ts), are validated in full (the caller builds anew).
 */
import { checkStatus, checkVersionSupported } from "../checks/header";
import { deviceIpRequirement } from "../checks/devices";
import { impliedVersion, isJsonObject, type JsonObject, type JsonValue } from "../model";
import { readRootFields, readServerEntry, readSuperPods, type DeviceView } from "../table-view";
import { diffEntries } from "./entry-diff";
import { firstHolder, holderList } from "./holders";
import { RankOrder, replaceRange, shiftPaths } from "./rank-order";
import { takeSince } from "./tally";
import { Touched, V1Index } from "./v1-index";
import { PASSES, V1Checks, type Unit } from "./v1-checks";
import { mixedFamily } from "./v1-walks";

/** As for "2.0" tables (a5-state.ts): past this many servers changed (or an eighth of them), a full run is cheaper. */
const MAX_CHANGED = 512;

const DOCUMENT = { path: "" };

export class V1State extends V1Checks {
  /** Devices read with a server (readServerEntry's list of the whole table, unused here). */
  private readonly scratch: DeviceView[] = [];
  /** The number of devices RT047 was last checked against. */
  private countChecked: number | undefined;

  private constructor(
    root: JsonObject,
    private readonly isV1Root: (root: JsonObject) => boolean,
  ) {
    super(root);
  }

  /**
   * The state of a "1.0"/"1.2" table, validated in full; undefined when the table is not one (`isV1Root` tells the
   * layouts checked otherwise; the version is read here).
   */
  static build(table: JsonValue, isV1Root: (root: JsonObject) => boolean): V1State | undefined {
    const steps = V1State.building(table, isV1Root);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `build` in steps of one server: each yields the share of the work done (0–1), so the editor's worker can build
   * the state after it has sent a full run's report, between the messages it answers (index.ts).
   */
  static *building(table: JsonValue, isV1Root: (root: JsonObject) => boolean): Generator<number, V1State | undefined> {
    if (!isJsonObject(table) || !isV1Root(table)) return undefined;
    const state = new V1State(table, isV1Root);
    const serverList = state.readHead();
    if (serverList === false) return undefined;
    const entries = serverList ?? [];
    let most = 0;
    for (const entry of entries) if (isJsonObject(entry) && Array.isArray(entry.device)) most = Math.max(most, entry.device.length);
    state.index = new V1Index(2 ** Math.ceil(Math.log2(most + 1)));
    state.order = new RankOrder(entries.map(isJsonObject), state.index.stride);
    state.reads = new Array(entries.length).fill(undefined);
    const fresh = new Set<Unit>();
    // Reading and filing a server costs about what checking it does (bench editor-incremental): half the work each.
    const share = 0.5 / Math.max(1, entries.length);
    for (let index = 0; index < entries.length; index++) {
      state.readEntry(entries, index, fresh);
      yield index * share;
    }
    state.readPods();
    const checks = state.gather(fresh);
    let checked = 0;
    for (const unit of checks) {
      state.checkUnit(unit);
      yield 0.5 + checked++ * (0.5 / Math.max(1, checks.size));
    }
    state.checkTableWide();
    return state;
  }

  /**
   * The header as checkTable reads it before the servers (version, status, the version's support, the root's own
   * fields); false when the table is not checked as "1.0"/"1.2", else server_list when it is a list.
   */
  private readHead(): JsonValue[] | undefined | false {
    const { reader, sink, root } = this;
    const declared = reader.scalar(root.version, "version", DOCUMENT);
    checkStatus(reader.scalar(root.status, "status", DOCUMENT), sink);
    if (declared === "2.0" || !checkVersionSupported(declared, root, sink)) return false;
    const { view, serverList } = readRootFields(root, reader);
    this.setGlobal("head", takeSince(sink, 0));
    this.rootView = view;
    this.declaredVersion = declared;
    this.superPodListPresent = root.super_pod_list !== undefined;
    this.version = impliedVersion(declared, this.superPodListPresent);
    return serverList;
  }

  private readPods(): void {
    this.superPods = readSuperPods(this.root, this.reader);
    this.setGlobal("podReads", takeSince(this.sink, 0));
  }

  /** Reads server_list entry `index` into its unit (the order already has its position and key). */
  private readEntry(entries: readonly JsonValue[], index: number, fresh: Set<Unit>, touched?: Touched): boolean {
    this.scratch.length = 0;
    const view = readServerEntry(this.reader, entries[index]!, index, this.scratch);
    this.tally.remove(this.reads[index]);
    this.reads[index] = takeSince(this.sink, 0);
    this.tally.add(this.reads[index]);
    if (view === undefined) return true;
    if (view.devices.length > 0 && view.devices[view.devices.length - 1]!.index >= this.index.stride) return false;
    const position = this.order.positionOfEntry(index);
    const unit = this.newUnit(view);
    this.units[position] = unit;
    this.index.file(view, this.order.key(position), 1, touched);
    fresh.add(unit);
    return true;
  }

  /** Takes a unit out of the indexes and its findings out of the tally. */
  private takeOut(unit: Unit, key: number, touched: Touched): void {
    this.index.file(unit.view, key, -1, touched);
    if (unit.superPod !== undefined) this.index.filePod(unit.view, key, unit.superPod.index, -1, touched);
    for (const pass of PASSES) this.tally.remove(unit[pass]);
  }

  /**
   * Brings the state to `next`; false when `next` is not the same kind of table with some server_list entries
   * changed, added or removed (the caller then builds a new state).
   */
  update(next: JsonValue): boolean {
    if (!isJsonObject(next) || !this.isV1Root(next)) return false;
    const previous = this.root;
    const kind = [this.declaredVersion, this.version, this.superPodListPresent, Array.isArray(previous.super_pod_list)].join();
    this.root = next;
    if (this.readHead() === false || kind !== [this.declaredVersion, this.version, this.superPodListPresent, Array.isArray(next.super_pod_list)].join()) return false;
    const changed = new Set<Unit>();
    const touched = new Touched();
    const before = previous.server_list;
    const after = next.server_list;
    if (after !== before) {
      if (!Array.isArray(after) || !Array.isArray(before)) return false;
      const change = diffEntries(before, after, Math.max(MAX_CHANGED, before.length >> 3));
      if (change === undefined) return false;
      if (change.kind === "entries") {
        for (const index of change.changed) {
          const position = this.order.positionOfEntry(index);
          if (position >= 0) this.takeOut(this.units[position]!, this.order.key(position), touched);
          if (!this.readEntry(after, index, changed, touched)) return false;
        }
      } else if (!this.splice(after, change.at, change.removed, change.inserted, changed, touched)) return false;
    }
    if (next.super_pod_list !== previous.super_pod_list) this.readPods();
    this.settle(changed, touched);
    return true;
  }

  /**
   * Entries [at, at + removed) of the old server_list replaced by [at, at + inserted) of the new one: the removed
   * servers leave the indexes, the servers after them are renumbered (their keys stay), the inserted ones are read.
   */
  private splice(entries: readonly JsonValue[], at: number, removed: number, inserted: number, changed: Set<Unit>, touched: Touched): boolean {
    const from = this.order.positionFrom(at);
    let position = from;
    for (let index = at; index < at + removed; index++) {
      this.tally.remove(this.reads[index]);
      if (this.order.positionOfEntry(index) < 0) continue;
      this.takeOut(this.units[position]!, this.order.key(position), touched);
      position++;
    }
    const keys = this.order.splice({ at, removed, inserted: entries.slice(at, at + inserted).map(isJsonObject) });
    if (keys === undefined) return false;
    replaceRange(this.reads, at, removed, new Array<undefined>(inserted).fill(undefined));
    replaceRange(this.units, from, position - from, new Array<Unit>(keys.length));
    const shift = inserted - removed;
    if (shift !== 0) {
      for (let index = at + inserted; index < this.reads.length; index++) shiftPaths(this.reads[index], at + removed, shift, "server_list");
      for (let p = from + keys.length; p < this.units.length; p++) {
        const { view } = this.units[p]!;
        view.index = this.order.entry(p);
        view.path = `/server_list/${view.index}`;
      }
      // Every server's, not only the later ones': a backup's findings may name its owner, later in the table.
      for (const unit of this.units) if (unit !== undefined) for (const pass of PASSES) shiftPaths(unit[pass], at + removed, shift, "server_list");
    }
    for (let index = at; index < at + inserted; index++) if (!this.readEntry(entries, index, changed, touched)) return false;
    return true;
  }

  /** After the changed servers are filed: finds every server to check again, checks them, then the table-wide rules. */
  private settle(changed: Set<Unit>, touched?: Touched): void {
    for (const unit of this.gather(changed, touched)) this.checkUnit(unit);
    this.checkTableWide();
  }

  /** Adds to `changed` every server to check again (counts, pods, holders, RT037's device); the ones still in the table. */
  private gather(changed: Set<Unit>, touched?: Touched): Set<Unit> {
    const { index, units } = this;
    const several = units.length > 1;
    const requirement = deviceIpRequirement(this.version, units.length, this.superPods?.length);
    if (several !== this.several) for (const unit of units) changed.add(unit);
    if (JSON.stringify(requirement) !== JSON.stringify(this.requirement)) for (const unit of units) if (unit.missingIp) changed.add(unit);
    [this.several, this.requirement] = [several, requirement];
    this.countChanged(changed);
    this.assignPods((unit, from, to) => {
      const key = this.serverKeyOf(unit.view);
      if (from?.index !== to?.index) {
        if (from !== undefined) index.filePod(unit.view, key, from.index, -1, touched);
        if (to !== undefined) index.filePod(unit.view, key, to.index, 1, touched);
      }
      changed.add(unit);
    });
    if (touched) this.holdersChanged(touched, changed);
    const mixed = mixedFamily(this.units, index);
    const was = this.mixed;
    if (mixed?.device !== was?.device || mixed?.first !== was?.first) {
      for (const device of [was?.device, mixed?.device]) {
        const unit = device && this.unitOf(device.server);
        if (unit) changed.add(unit);
      }
    }
    this.mixed = mixed;
    for (const unit of changed) if (this.unitOf(unit.view) !== unit) changed.delete(unit);
    return changed;
  }

  /** RT047 names the number of devices: when it changes, the servers with one and the holders of ids that crossed it. */
  private countChanged(changed: Set<Unit>): void {
    const count = this.index.devices;
    const before = this.countChecked ?? count;
    this.countChecked = count;
    if (count === before) return;
    for (const unit of this.units) if (unit.ranks?.some((finding) => finding.code === "RT047")) changed.add(unit);
    const stride = this.index.stride;
    for (let id = Math.min(count, before); id < Math.max(count, before); id++) {
      for (const holder of holderList(this.index.rankIds.get(id))) changed.add(this.unitOfKey(Math.floor(holder / stride)));
    }
  }

  /**
   * The servers whose keys' first holder changed (or is a server read again, perhaps another device under the same
   * key), and the servers backing up on an address whose owner changed: they are checked again.
   */
  private holdersChanged(touched: Touched, changed: Set<Unit>): void {
    const { index } = this;
    for (const [map, firsts] of touched.firsts) {
      if (map === index.backups) continue;
      const divisor = map === index.serverIds || map === index.hostIps ? 1 : index.stride;
      for (const [key, first] of firsts) {
        const holders = map.get(key);
        const now = holders === undefined ? undefined : firstHolder(holders);
        if (now === first && (now === undefined || !touched.rekeyed.has(Math.floor(now / divisor)))) continue;
        for (const holder of holderList(holders)) changed.add(this.unitOfKey(Math.floor(holder / divisor)));
        if (map === index.deviceIps) for (const holder of holderList(index.backups.get(key as never))) changed.add(this.unitOfKey(Math.floor(holder / divisor)));
      }
    }
  }
}
