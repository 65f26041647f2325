/**
 * What the incremental "1.0"/"1.2" validation (v1-state.ts) keeps and how it checks it: the findings of the rules of
 * checks/servers.ts, devices.ts, ranks.ts, backups.ts and super-pods.ts, filed per server (one unit: a server_list
 * entry and its devices) and per pass, and each unit re-checkable alone through the holder indexes (v1-index.ts).
 * The rules fall in four kinds:
 *
 * - read and local to a server (RT002–RT004, RT020, RT021, RT023, RT025, RT030–RT033, RT035, RT040–RT042, RT044,
 *   RT045, RT049, RT050, RT051, RT054): recomputed for the servers an edit replaced;
 * - keyed on other servers (RT022 server_id, RT026 host_ip, RT036 device_ip, RT046 rank_id, RT034 super_device_id in
 *   a pod; RT043, RT052, RT053, RT055 through the owner of a backup address): a server is checked again when the
 *   first holder of one of its keys changes, or the owner of an address it backs up on;
 * - following a count (RT024 and RT038/RT039 the numbers of servers and pods, RT047 the number of devices): the
 *   servers concerned are checked again when the count changes;
 * - table-wide, worked out again after each edit from the units' summaries in a walk over the servers (not the
 *   devices): the header's reads and rules (RT002–RT004, RT010–RT017), RT048 (from each server's ranks in physical
 *   order), RT067, the pods' membership and places (RT060–RT066); RT013, RT037 and RT067 name a first device, found
 *   by a walk over the devices only when the index's counts say there is one (v1-walks.ts).
 *
 * The report lists the findings in the full validator's order: the header's reads, the servers' reads by entry,
 * the pods' reads, the header rules, then each pass of validate.ts over the servers in order.
 */
import type { BackupKeys } from "../checks/backups";
import { checkDeviceBackup } from "../checks/backups";
import { checkServerDevices, type DeviceIpRequirement, type DeviceKeys } from "../checks/devices";
import { checkHeader } from "../checks/header";
import { checkContiguousRanks, checkDeviceRank, checkPhysicalOrder, physicalRun, type EarlierWithRank, type PhysicalRun } from "../checks/ranks";
import { checkServer, type ServerKeys } from "../checks/servers";
import { checkContiguousServers, checkHalfConfigured, checkMembership, checkSuperDeviceId, superPodLabel } from "../checks/super-pods";
import type { Finding } from "../findings";
import type { JsonObject, Lang, ValidationReport } from "../model";
import type { ReportLimits } from "../../report-limits";
import { ViewReader, type DeviceView, type ServerView, type SuperPodView, type TableView } from "../table-view";
import { firstHolder, type Holders } from "./holders";
import { RankOrder } from "./rank-order";
import { ReportBuilder, scratchFindings, takeSince, Tally } from "./tally";
import { V1Index } from "./v1-index";
import { superDeviceIds, type Mixed } from "./v1-walks";

/** A server_list entry that is an object: its view and its findings per pass. */
export interface Unit {
  view: ServerView;
  physical: PhysicalRun | undefined;
  /** Whether one of its devices lacks device_ip (RT038/RT039 follow the numbers of servers and pods). */
  missingIp: boolean;
  /** The pod that lists it, and that pod's label as RT034 names it. */
  superPod: SuperPodView | undefined;
  podLabel: string | undefined;
  server?: Finding[];
  devices?: Finding[];
  ranks?: Finding[];
  contiguous?: Finding[];
  backups?: Finding[];
  superDevices?: Finding[];
}

export const PASSES = ["server", "devices", "ranks", "contiguous", "backups", "superDevices"] as const;
type Pass = (typeof PASSES)[number];

/** Findings of the table as a whole, each worked out again after every edit. */
type Global = "head" | "podReads" | "header" | "physical" | "halfConfigured" | "membership" | "contiguousPods";

export abstract class V1Checks {
  protected readonly sink = scratchFindings();
  protected readonly reader = new ViewReader(this.sink);
  protected readonly tally = new Tally();
  protected readonly globals: Partial<Record<Global, Finding[]>> = {};
  /** By server_list entry. */
  protected reads: (Finding[] | undefined)[] = [];
  /** By server position (the entries that are objects). */
  protected units: Unit[] = [];
  protected order = new RankOrder([], 1);
  protected index = new V1Index(1);
  protected rootView!: TableView;
  protected superPods: SuperPodView[] | undefined;
  protected declaredVersion: string | undefined;
  protected version: "1.0" | "1.2" = "1.0";
  protected superPodListPresent = false;
  protected several = false;
  protected requirement: DeviceIpRequirement;
  protected mixed: Mixed | undefined;

  protected constructor(protected root: JsonObject) {}

  protected setGlobal(name: Global, findings: Finding[] | undefined): void {
    this.tally.remove(this.globals[name]);
    this.globals[name] = findings;
    this.tally.add(findings);
  }

  protected setPass(unit: Unit, pass: Pass, findings: Finding[] | undefined): void {
    this.tally.remove(unit[pass]);
    unit[pass] = findings;
    this.tally.add(findings);
  }

  /** A unit for a server just read: its local summaries (RT049, the physical order of its ranks) worked out. */
  protected newUnit(view: ServerView): Unit {
    const unit: Unit = { view, physical: physicalRun(view), missingIp: view.devices.some((device) => device.deviceIp === undefined), superPod: undefined, podLabel: undefined };
    checkContiguousRanks(view, this.sink);
    this.setPass(unit, "contiguous", takeSince(this.sink, 0));
    return unit;
  }

  protected serverKeyOf(server: ServerView): number {
    return this.order.key(this.order.positionOfEntry(server.index));
  }

  protected deviceKeyOf(device: DeviceView): number {
    return this.serverKeyOf(device.server) * this.index.stride + device.index;
  }

  protected unitOfKey(serverKey: number): Unit {
    return this.units[this.order.position(serverKey)]!;
  }

  /** The unit of a server view, when that view is still in the table. */
  protected unitOf(server: ServerView): Unit | undefined {
    const unit = this.units[this.order.positionOfEntry(server.index)];
    return unit?.view === server ? unit : undefined;
  }

  protected deviceOfKey(key: number): DeviceView {
    const serverKey = Math.floor(key / this.index.stride);
    const devices = this.unitOfKey(serverKey).view.devices;
    const at = key - serverKey * this.index.stride;
    const guess = devices[at];
    return guess?.index === at ? guess : devices.find((device) => device.index === at)!;
  }

  /** The first holder of `key` when it is not `own` (the full run's rememberFirst, from the indexes). */
  private earlier(map: Map<unknown, Holders>, key: unknown, own: number): number | undefined {
    const first = firstHolder(map.get(key)!);
    return first === own ? undefined : first;
  }

  private earlierServer(map: Map<string, Holders>, key: string, server: ServerView): ServerView | undefined {
    const first = this.earlier(map as Map<unknown, Holders>, key, this.serverKeyOf(server));
    return first === undefined ? undefined : this.unitOfKey(first).view;
  }

  private earlierDevice<K>(map: Map<K, Holders>, key: K, device: DeviceView): DeviceView | undefined {
    const first = this.earlier(map as Map<unknown, Holders>, key, this.deviceKeyOf(device));
    return first === undefined ? undefined : this.deviceOfKey(first);
  }

  private readonly serverKeys: ServerKeys = {
    several: false,
    earlierWithId: (server, serverId) => this.earlierServer(this.index.serverIds, serverId, server),
    earlierWithHostIp: (server, hostIp) => this.earlierServer(this.index.hostIps, hostIp, server),
  };

  private readonly deviceKeys: DeviceKeys = {
    version: "1.0",
    requirement: undefined,
    earlierWithIp: (device, key) => this.earlierDevice(this.index.deviceIps, key, device),
    mixedFamily: (device) => (this.mixed?.device === device ? this.mixed : undefined),
  };

  private readonly earlierWithRank: EarlierWithRank = (device, rank) => this.earlierDevice(this.index.rankIds, rank, device);

  private readonly backupKeys: BackupKeys = {
    version: "1.0",
    ownerOf: (key) => {
      const holders = this.index.deviceIps.get(key);
      return holders === undefined ? undefined : this.deviceOfKey(firstHolder(holders));
    },
    isAfter: (device, other) => this.deviceKeyOf(device) > this.deviceKeyOf(other),
  };

  private readonly earlierInPod = (superPod: SuperPodView, number: number, device: DeviceView) => this.earlierDevice(this.index.superDeviceIds.get(superPod.index)!, number, device);

  /** The rules of one server that read other servers or counts (its local ones were found with its unit). */
  protected checkUnit(unit: Unit): void {
    const { sink, version } = this;
    const { view } = unit;
    this.serverKeys.several = this.several;
    Object.assign(this.deviceKeys, { version, requirement: this.requirement });
    this.backupKeys.version = version;
    checkServer(view, this.serverKeys, sink);
    this.setPass(unit, "server", takeSince(sink, 0));
    checkServerDevices(view, this.deviceKeys, sink);
    this.setPass(unit, "devices", takeSince(sink, 0));
    for (const device of view.devices) checkDeviceRank(device, this.index.devices, this.earlierWithRank, sink);
    this.setPass(unit, "ranks", takeSince(sink, 0));
    for (const device of view.devices) checkDeviceBackup(device, this.backupKeys, sink);
    this.setPass(unit, "backups", takeSince(sink, 0));
    if (unit.superPod !== undefined) for (const device of view.devices) checkSuperDeviceId(device, unit.superPod, this.earlierInPod, sink);
    this.setPass(unit, "superDevices", takeSince(sink, 0));
  }

  /**
   * RT060–RT065 (the pods' ids, members and places), and each server's pod: `onMove` is told of a server that
   * changed pods or whose pod changed its label (its RT034s name it).
   */
  protected assignPods(onMove: (unit: Unit, from: SuperPodView | undefined, to: SuperPodView | undefined) => void): void {
    const { superPods } = this;
    if (this.version !== "1.2" || superPods === undefined) {
      this.setGlobal("membership", undefined);
      this.setGlobal("contiguousPods", undefined);
      for (const unit of this.units) {
        if (unit.superPod !== undefined) onMove(unit, unit.superPod, undefined);
        unit.superPod = unit.podLabel = undefined;
      }
      return;
    }
    const servers = this.units.map((unit) => unit.view);
    const membership = checkMembership(servers, superPods, (serverId) => {
      const holders = this.index.serverIds.get(serverId);
      return holders === undefined ? undefined : this.unitOfKey(firstHolder(holders)).view;
    }, this.sink);
    this.setGlobal("membership", takeSince(this.sink, 0));
    for (const unit of this.units) {
      const superPod = membership.get(unit.view)?.superPod;
      if (superPod?.index !== unit.superPod?.index || (superPod && superPodLabel(superPod) !== unit.podLabel)) onMove(unit, unit.superPod, superPod);
      unit.superPod = superPod;
      unit.podLabel = superPod && superPodLabel(superPod);
    }
    checkContiguousServers(servers, membership, this.sink);
    this.setGlobal("contiguousPods", takeSince(this.sink, 0));
  }

  /** The table-wide rules that read every server's summary: the header's, RT048 and RT067. */
  protected checkTableWide(): void {
    const { sink } = this;
    const presence = superDeviceIds(this.units, this.index);
    checkHeader({ view: this.rootView, findings: sink, declaredVersion: this.declaredVersion }, this.root, presence);
    this.setGlobal("header", takeSince(sink, 0));
    checkPhysicalOrder(
      this.units.map((unit) => unit.physical),
      sink,
    );
    this.setGlobal("physical", takeSince(sink, 0));
    if (this.version === "1.2") checkHalfConfigured(presence, this.superPodListPresent, sink);
    this.setGlobal("halfConfigured", takeSince(sink, 0));
  }

  report(lang: Lang, limits: Readonly<ReportLimits> | undefined): ValidationReport {
    const builder = new ReportBuilder(lang, limits);
    const { globals, units } = this;
    const pass = (name: Pass) => {
      for (let i = 0; i < units.length && builder.open; i++) builder.addAll(units[i]![name]);
    };
    builder.addAll(globals.head);
    for (let i = 0; i < this.reads.length && builder.open; i++) builder.addAll(this.reads[i]);
    builder.addAll(globals.podReads);
    builder.addAll(globals.header);
    pass("server");
    pass("devices");
    pass("ranks");
    builder.addAll(globals.physical);
    pass("contiguous");
    pass("backups");
    builder.addAll(globals.halfConfigured);
    builder.addAll(globals.membership);
    builder.addAll(globals.contiguousPods);
    pass("superDevices");
    const superPods = this.version === "1.2" ? this.superPods : undefined;
    const report: ValidationReport = {
      valid: this.tally.errors === 0,
      version: this.declaredVersion ?? null,
      mode: superPods !== undefined ? "super-pod" : "ai-server",
      stats: { superPods: this.superPods?.length ?? 0, servers: units.length, devices: this.index.devices },
      issues: builder.issues,
    };
    const omitted = builder.omitted(this.tally);
    if (omitted) report.omitted = omitted;
    return report;
  }
}
