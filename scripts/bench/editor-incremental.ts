/**
 * The worker's validation of one edit with the incremental validator (lib/rank-table/incremental): the first, full
 * validation that builds its indexes (for "1.x" tables, as the worker does: the full run's report, then the indexes
 * built after it in slices, and an edit that comes before they are), the memory those take, and each kind of edit
 * (apply + validate + index the findings, as the worker and editor do) as median and p95 of several runs, with the
 * load average. On the "2.0"
 * tables of editor-large.ts (called from there with the main thread's share), and on its own as the section
 * `editor-incremental`: "2.0", "1.2" and "1.0" tables (RANKSCOPE_BENCH_EDITOR_LAYOUTS) of 16,384, 131,072 and
 * 524,288 ranks (RANKSCOPE_BENCH_EDITOR_SIZES), edits of fields, ranks, devices and servers added and removed, a
 * whole AI Server or super pod added and removed, and a header field.
 * Run with `node --expose-gc` (NODE_OPTIONS) for the memory figure; without it the figure includes garbage.
 */
import { generateA5Table, generateFromTemplate, isJsonObject, validateRankTable, type JsonObject, type JsonValue } from "../../lib/rank-table";
import { IncrementalValidator, type ValidationRun } from "../../lib/rank-table/incremental";
import { applyEdit, type Edit } from "../../lib/rank-table-workspace/edit";
import { indexIssues } from "../../lib/rank-table-workspace/structure";
import { fmt, timed, type Timing } from "./cpu-timed";
import { loadAverage, ms, spread } from "./percentiles";
import type { BenchSection } from "./index";

const DEFAULT_SIZES = [16_384, 131_072, 524_288];
const NPUS_PER_RACK = 64;
/** The worker's slice of a deferred build (components/rank-tables/worker-validator.ts). */
const BUILD_SLICE_MS = 40;
/** Runs per edit kind (pairs of edit and undo). */
const RUNS = 20;

function heapUsed(): { bytes: number; exact: boolean } {
  const gc = (globalThis as { gc?: () => void }).gc;
  // Twice: one call can leave garbage of the table just generated for the next.
  gc?.();
  gc?.();
  return { bytes: process.memoryUsage().heapUsed, exact: gc !== undefined };
}

const firstAddress = (entry: JsonObject) => ((entry.level_list as JsonObject[])[0]!.rank_addr_list as JsonObject[])[0]!;
const ranksOf = (table: JsonValue) => (table as JsonObject).rank_list as JsonValue[];

/** The table with rank_list changed by `change` on a copy of the list (entries shared), as an edit in the JSON view. */
function withRanks(table: JsonValue, change: (ranks: JsonValue[]) => void): JsonValue {
  const ranks = ranksOf(table).slice();
  change(ranks);
  return { ...(table as JsonObject), rank_list: ranks };
}

/** The table with rank `rank`'s first address set to `addr` (one rank_list entry replaced, the rest shared). */
function setAddress(table: JsonValue, rank: number, addr: string): JsonValue {
  return withRanks(table, (ranks) => {
    const copy = structuredClone(ranks[rank]!) as JsonObject;
    firstAddress(copy).addr = addr;
    ranks[rank] = copy;
  });
}

type Step = (table: JsonValue) => JsonValue;
interface EditKind {
  name: string;
  /** The edit and the one that undoes it (so every run starts from the same table). */
  steps: [Step, Step];
}

const set = (edit: Edit): Step => (table) => applyEdit(table, edit);

/** Edit kinds of a "2.0" table of `ranks` ranks. */
function a5Kinds(table: JsonValue, ranks: number): EditKind[] {
  const middle = Math.floor(ranks / 2);
  const own = firstAddress(ranksOf(table)[middle] as JsonObject).addr as string;
  const taken = firstAddress(ranksOf(table)[0] as JsonObject).addr as string;
  const removed: JsonValue[] = [];
  const rack = middle - (middle % NPUS_PER_RACK);
  return [
    { name: "one field (device_port)", steps: [set({ type: "setRank", rank: middle, field: "device_port", value: "16001" }), set({ type: "setRank", rank: middle, field: "device_port", value: undefined })] },
    { name: "rank_id → another rank's (RT106 duplicate, RT108)", steps: [set({ type: "setRank", rank: middle, field: "rank_id", value: "7" }), set({ type: "setRank", rank: middle, field: "rank_id", value: String(middle) })] },
    { name: "rank_count (a header field)", steps: [set({ type: "set", path: {}, field: "rank_count", value: "1" }), set({ type: "set", path: {}, field: "rank_count", value: String(ranks) })] },
    { name: "an EID copied from rank 0 (RT124 duplicate; one entry replaced)", steps: [(current) => setAddress(current, middle, taken), (current) => setAddress(current, middle, own)] },
    {
      name: "remove a rank in the middle (removeRank; RT107, RT108) / put it back",
      steps: [(current) => ((removed[0] = ranksOf(current)[middle]!), applyEdit(current, { type: "removeRank", rank: middle })), (current) => withRanks({ ...(current as JsonObject), rank_count: ranks }, (list) => list.splice(middle, 0, removed[0]!))],
    },
    {
      name: "remove an AI Server (64 ranks) in the middle / put it back",
      steps: [(current) => withRanks(current, (list) => removed.splice(0, removed.length, ...list.splice(rack, NPUS_PER_RACK))), (current) => withRanks(current, (list) => list.splice(rack, 0, ...removed))],
    },
    { name: "add a rank at the end (a copy: RT106, RT124) / remove it", steps: [(current) => withRanks(current, (list) => list.push(structuredClone(list[0]!))), (current) => withRanks(current, (list) => list.pop())] },
    {
      name: `add a SuperPoD of ${podSize(ranks).toLocaleString("en")} ranks at the end (its own EIDs, rank_ids after the others) / remove it`,
      steps: [(current) => withRanks({ ...(current as JsonObject), rank_count: ranks + podSize(ranks) }, (list) => list.push(...newPod(ranks))), (current) => withRanks({ ...(current as JsonObject), rank_count: ranks }, (list) => list.splice(ranks))],
    },
  ];
}

/** A SuperPoD as big as an Atlas 950 one (8,192 NPUs), or an eighth of a smaller table. */
const podSize = (ranks: number) => Math.min(8192, ranks / 8);
const pods = new Map<number, JsonValue[]>();

/** The ranks of a second SuperPoD (generated once per size, outside the timed edit), numbered after `ranks`. */
function newPod(ranks: number): JsonValue[] {
  let pod = pods.get(ranks);
  if (pod === undefined) {
    const size = podSize(ranks);
    const table = generateA5Table({ racks: size / NPUS_PER_RACK, npusPerRack: NPUS_PER_RACK, superPodId: "superpod1", superPodIndex: 1 }) as unknown as JsonObject;
    pod = (table.rank_list as JsonObject[]).map((rank) => ({ ...rank, rank_id: (rank.rank_id as number) + ranks }));
    pods.set(ranks, pod);
  }
  return pod;
}

/** Devices per server of the "1.x" tables: an Atlas A3 server, 8 NPUs × 2 dies. */
const DEVICES_PER_SERVER = 16;
/** Servers per super pod of the "1.2" tables, and of the stretch of servers added and removed at once. */
const SERVERS_PER_POD = 256;

/** Edit kinds of a "1.0" or "1.2" table (server_list, super_pod_list in "1.2") of `servers` servers. */
function v1Kinds(servers: number, version: "1.0" | "1.2"): EditKind[] {
  const middle = Math.floor(servers / 2);
  const removed: JsonValue[] = [];
  const pod = version === "1.2" ? 0 : undefined;
  const stretch = newServers(servers, version);
  return [
    { name: "one field (device_ip)", steps: [set({ type: "set", path: { server: middle, device: 1 }, field: "device_ip", value: "10.255.0.1" }), set({ type: "set", path: { server: middle, device: 1 }, field: "device_ip", value: undefined })] },
    { name: "rank_id → another device's (RT046 duplicate, RT049)", steps: [set({ type: "set", path: { server: middle, device: 1 }, field: "rank_id", value: "7" }), set({ type: "set", path: { server: middle, device: 1 }, field: "rank_id", value: String(middle * DEVICES_PER_SERVER + 1) })] },
    { name: "server_count (a header field)", steps: [set({ type: "set", path: {}, field: "server_count", value: "1" }), set({ type: "set", path: {}, field: "server_count", value: String(servers) })] },
    { name: "add a device / remove it", steps: [set({ type: "addDevice", server: middle }), (current) => applyEdit(current, { type: "removeDevice", server: middle, device: deviceCount(current, middle) - 1 })] },
    { name: `add a server${pod === undefined ? " at the end" : " to super pod 0"} / remove it`, steps: [set({ type: "addServer", pod }), (current) => applyEdit(current, { type: "removeServer", server: addedServer(current) })] },
    {
      name: "remove a server in the middle (the JSON view) / put it back",
      steps: [(current) => withServers(current, (list) => removed.splice(0, removed.length, ...list.splice(middle, 1))), (current) => withServers(current, (list) => list.splice(middle, 0, ...removed))],
    },
    {
      name: `add ${version === "1.2" ? "a super pod of " : ""}${SERVERS_PER_POD} servers (${(SERVERS_PER_POD * DEVICES_PER_SERVER).toLocaleString("en")} devices) at the end / remove ${version === "1.2" ? "it" : "them"}`,
      steps: [(current) => withStretch(current, stretch, servers), (current) => withStretch(current, undefined, servers)],
    },
  ];
}

const serversOf = (table: JsonValue) => (table as JsonObject).server_list as JsonObject[];
const deviceCount = (table: JsonValue, server: number) => (serversOf(table)[server]!.device as JsonValue[]).length;
const addedServer = (table: JsonValue) => serversOf(table).findIndex((server) => String(server.server_id).startsWith("new_server_"));

/** The table with server_list changed by `change` on a copy of the list (entries shared), as an edit in the JSON view. */
function withServers(table: JsonValue, change: (servers: JsonValue[]) => void): JsonValue {
  const servers = (serversOf(table) as JsonValue[]).slice();
  change(servers);
  return { ...(table as JsonObject), server_list: servers };
}

interface Stretch {
  servers: JsonObject[];
  pod?: JsonObject;
}

/** SERVERS_PER_POD servers after the others (their own ids, addresses and ranks), and in "1.2" the pod listing them. */
function newServers(servers: number, version: "1.0" | "1.2"): Stretch {
  const pods = Math.max(1, servers / SERVERS_PER_POD);
  const extra = generateFromTemplate({ version, superPods: 1, serversPerSuperPod: SERVERS_PER_POD, npusPerServer: DEVICES_PER_SERVER / 2, serverId: "added_{server}", hostIp: "172.31.{server/256}.{server%256}", deviceIp: "10.250.{server%256}.{device}", superPodId: `${pods}` }) as unknown as JsonObject;
  const offset = servers * DEVICES_PER_SERVER;
  const added = (extra.server_list as JsonObject[]).map((server) => ({ ...server, device: (server.device as JsonObject[]).map((device) => ({ ...device, rank_id: String(Number(device.rank_id) + offset) })) }));
  return { servers: added, pod: version === "1.2" ? (extra.super_pod_list as JsonObject[])[0] : undefined };
}

/** The table with the stretch added at the end (or, undefined, taken away again): server_count follows. */
function withStretch(table: JsonValue, stretch: Stretch | undefined, servers: number): JsonValue {
  const root = table as JsonObject;
  const next: JsonObject = { ...root, server_count: String(servers + (stretch ? SERVERS_PER_POD : 0)) };
  next.server_list = stretch ? [...(root.server_list as JsonValue[]), ...stretch.servers] : (root.server_list as JsonValue[]).slice(0, servers);
  if (Array.isArray(root.super_pod_list)) next.super_pod_list = stretch?.pod ? [...root.super_pod_list, stretch.pod] : root.super_pod_list.slice(0, Math.max(1, servers / SERVERS_PER_POD));
  return next;
}

/** Runs each kind `runs` times (edit, undo, edit…) and prints median and p95 of CPU and wall time. */
function timeKinds(validator: IncrementalValidator, table: JsonValue, kinds: EditKind[], runs: number, mainThread?: Timing): void {
  let current = table;
  for (const { name, steps } of kinds) {
    const cpu: number[] = [];
    const wall: number[] = [];
    const modes = new Set<ValidationRun>();
    for (let run = 0; run < runs; run++) {
      const step = steps[run % 2]!;
      const timing = timed(() => {
        const next = step(current);
        indexIssues(validator.validate(next).issues);
        return next;
      });
      current = timing.value;
      modes.add(validator.lastRun);
      cpu.push(timing.cpu);
      wall.push(timing.wall);
    }
    const [c, w] = [spread(cpu), spread(wall)];
    console.log(`  ${name} [${[...modes].join("/")}], ${runs} runs: CPU median ${ms(c.p50)}, p95 ${ms(c.p95)}; wall median ${ms(w.p50)}, p95 ${ms(w.p95)} (load ${loadAverage()})`);
    if (mainThread) console.log(`    median with the main thread's share: ${ms(c.p50 + mainThread.cpu)} CPU (target < 300 ms)`);
  }
}

/** The first report; with deferBuild, then the indexes built after it in slices (as the worker does). */
function firstValidation(validator: IncrementalValidator, table: JsonValue): void {
  const before = heapUsed();
  const first = timed(() => validator.validate(table));
  const deferred = validator.building;
  if (deferred) {
    let slices = 1;
    const build = timed(() => {
      while (validator.buildSome(BUILD_SLICE_MS)) slices++;
    });
    console.log(`  first report (a full run): ${fmt(first)}; then its indexes built in ${slices} slices of ${BUILD_SLICE_MS} ms: ${fmt(build)} (load ${loadAverage()})`);
  }
  const after = heapUsed();
  const megabytes = (after.bytes - before.bytes) / 1024 / 1024;
  // A generated (not parsed) table's heap can shrink while it is first read: the difference then measures nothing.
  const indexes = megabytes < 0 ? "not measurable here (the heap shrank)" : `${megabytes.toFixed(0)} MiB of heap${after.exact ? "" : " (no --expose-gc: garbage included)"}`;
  console.log(`  ${deferred ? "the" : `first (full) validation: ${fmt(first)} (${first.value.issues.length} findings); its`} indexes: ${indexes} (load ${loadAverage()})`);
}

/** Prints the incremental validator's figures for a parsed "2.0" table of `ranks` ranks. */
export function incrementalFigures(table: JsonValue, ranks: number, mainThread?: Timing): void {
  if (!isJsonObject(table)) return;
  const validator = new IncrementalValidator();
  firstValidation(validator, table);
  timeKinds(validator, table, a5Kinds(table, ranks), RUNS, mainThread);
  // Undo, a repair or a language switch sends the whole table again (a structured clone, not timed here).
  const clone = structuredClone(table) as JsonValue;
  const whole = timed(() => validator.validate(clone));
  console.log(`  the whole table sent again (a clone, as after undo): validate ${fmt(whole)} [${validator.lastRun}]`);
  // Exactness on the real size, once: the last report equals a full validation of the same table.
  const duplicate = applyEdit(clone, { type: "setRank", rank: 1, field: "rank_id", value: "0" });
  validator.validate(duplicate);
  const edited = withRanks(duplicate, (list) => list.splice(ranks / 2, 3));
  const same = JSON.stringify(validator.validate(edited)) === JSON.stringify(validateRankTable(edited));
  console.log(`  incremental report after a duplicate rank_id and 3 ranks removed equals validateRankTable's: ${same ? "yes" : "NO"} [${validator.lastRun}]`);
}

function v1Figures(devices: number, version: "1.0" | "1.2"): void {
  const servers = devices / DEVICES_PER_SERVER;
  const superPods = Math.max(1, servers / SERVERS_PER_POD);
  const table = generateFromTemplate({ version, superPods, serversPerSuperPod: servers / superPods, npusPerServer: DEVICES_PER_SERVER / 2 }) as unknown as JsonValue;
  const shape = version === "1.2" ? `${superPods} super pods × ${servers / superPods} servers` : `${servers} servers`;
  console.log(`\n${devices.toLocaleString("en")} devices ("${version}", ${shape} × ${DEVICES_PER_SERVER} devices)`);
  // What every edit cost before 1.x edits were incremental: a full validation (median of 3).
  const full = [0, 1, 2].map(() => timed(() => validateRankTable(table)));
  console.log(`  a full validation (every edit before): CPU median ${ms(spread(full.map((run) => run.cpu)).p50)} (load ${loadAverage()})`);
  // As the editor's worker: the first report is a full run, the indexes are built after it in slices.
  const early = new IncrementalValidator({ deferBuild: true });
  early.validate(table);
  const edit = set({ type: "set", path: { server: 1, device: 1 }, field: "device_port", value: "16001" });
  const during = timed(() => early.validate(edit(table)));
  console.log(`  an edit right after the first report (the build not begun): ${fmt(during)} [${early.lastRun}] (load ${loadAverage()})`);
  const validator = new IncrementalValidator({ deferBuild: true });
  firstValidation(validator, table);
  timeKinds(validator, table, v1Kinds(servers, version), RUNS);
  const clone = structuredClone(table) as JsonValue;
  const whole = timed(() => validator.validate(clone));
  console.log(`  the whole table sent again (a clone, as after undo): validate ${fmt(whole)} [${validator.lastRun}]`);
  // Exactness on the real size, once: after a duplicate rank_id and a server removed, the report equals a full run.
  const duplicate = applyEdit(table, { type: "set", path: { server: 1, device: 0 }, field: "rank_id", value: "0" });
  validator.validate(duplicate);
  const edited = withServers(duplicate, (list) => list.splice(servers / 2, 1));
  const same = JSON.stringify(validator.validate(edited)) === JSON.stringify(validateRankTable(edited));
  console.log(`  incremental report after a duplicate rank_id and a server removed equals validateRankTable's: ${same ? "yes" : "NO"} [${validator.lastRun}]`);
}

function sizes(): number[] {
  const wanted = process.env.RANKSCOPE_BENCH_EDITOR_SIZES;
  return wanted ? wanted.split(",").map((size) => Number(size.trim())) : DEFAULT_SIZES;
}

/** RANKSCOPE_BENCH_EDITOR_LAYOUTS: which of "2.0", "1.2", "1.0" to time (default all). */
function layouts(): string[] {
  return process.env.RANKSCOPE_BENCH_EDITOR_LAYOUTS?.split(",").map((layout) => layout.trim()) ?? ["2.0", "1.2", "1.0"];
}

export const editorIncrementalBench: BenchSection = {
  name: "editor-incremental",
  description: 'the editor worker\'s incremental validation per edit kind, "2.0", "1.2" and "1.0" tables of 16k/131k/524k ranks (generated tables, not parsed text)',
  async run() {
    const wanted = layouts();
    for (const ranks of sizes()) {
      if (wanted.includes("2.0")) {
        console.log(`\n${ranks.toLocaleString("en")} ranks ("2.0")`);
        incrementalFigures(generateA5Table({ racks: ranks / NPUS_PER_RACK, npusPerRack: NPUS_PER_RACK }) as unknown as JsonValue, ranks);
      }
      for (const version of ["1.2", "1.0"] as const) if (wanted.includes(version)) v1Figures(ranks, version);
    }
  },
};
