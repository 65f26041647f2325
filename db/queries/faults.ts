import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import {
  defaultEscalationSettings,
  evaluateSeries,
  lookbackMs,
  type Escalation,
  seriesKey,
  type EscalationInput,
  type EscalationSettings,
} from "@/lib/faults/escalation";
import { faultProblem, zodIssueProblem, type FaultProblem } from "@/lib/faults/errors";
import { stableEventId } from "@/lib/faults/ids";
import type { FaultLevel } from "@/lib/faults/levels";
import { defaultLevelByKind, normaliseCode, targetKey, type EscalationRule, type FaultKind, type FaultSource, type FaultTarget, type TargetKind } from "@/lib/faults/model";
import type { DatabaseHandle } from "../client";
import { faultChannel, maxFutureSkewMs } from "../schema/fault-event/constants";
import { parseFaultEventInput } from "../schema/fault-event/fast-input";
import type { FaultEventInput } from "../schema/fault-event/validation";
import { auditInsert, type AuditActor, type AuditRecord } from "./audit";
import { arrayLiteral } from "./pg-array";
import { getFaultSettings, type FaultSettings } from "./settings";

/* ------------------------------------------------------------------------------------------------------------ */
/* Inventory lookup: cluster slug → ids, server id → refs, (server, device id) → die. Cached per inventory revision. */

export interface ClusterRef {
  id: number;
  slug: string;
  name: string;
  revision: number;
}

interface ServerEntry {
  ref: number;
  serverId: string;
  superPodRef: number | null;
  superPodId: string | null;
  hostIp: string | null;
  /** Index of the server inside its super pod (A3 ServerIndex), in inventory order. */
  podIndex: number;
}

export interface TargetIndex {
  revision: number;
  superPods: Map<string, number>;
  servers: Map<string, ServerEntry>;
  serversByRef: Map<number, ServerEntry>;
  /** `${serverRef}/${deviceId}` → die. */
  dies: Map<string, { ref: number; npuIndex: number }>;
  /** `${serverRef}/${npuIndex}` of every NPU. */
  npus: Set<string>;
  /** By host IP, for device-info ConfigMaps named after a node that is not the server id. */
  serversByHost: Map<string, ServerEntry>;
}

const indexCache = new Map<number, TargetIndex>();

export async function findCluster(pool: pg.Pool | pg.PoolClient, slugOrId: string): Promise<ClusterRef | null> {
  const byId = /^\d{1,9}$/.test(slugOrId);
  const { rows } = await pool.query<{ id: number; slug: string; name: string; revision: number }>(
    `select id, slug, name, inventory_revision as revision from clusters where ${byId ? "id = $1::int" : "slug = $1"} limit 1`,
    [slugOrId],
  );
  return rows[0] ?? null;
}

export async function loadTargetIndex(pool: pg.Pool | pg.PoolClient, cluster: ClusterRef): Promise<TargetIndex> {
  const cached = indexCache.get(cluster.id);
  if (cached && cached.revision === cluster.revision) return cached;
  const [pods, servers, dies] = await Promise.all([
    pool.query<{ id: number; super_pod_id: string }>("select id, super_pod_id from super_pods where cluster_id = $1", [cluster.id]),
    pool.query<{ id: number; server_id: string; super_pod_ref: number | null; host_ip: string | null }>(
      "select id, server_id, super_pod_ref, host(host_ip) as host_ip from servers where cluster_id = $1 order by position, id",
      [cluster.id],
    ),
    pool.query<{ id: number; server_ref: number; device_id: number; npu_index: number }>(
      "select d.id, d.server_ref, d.device_id, n.npu_index from devices d join npus n on n.id = d.npu_ref where d.cluster_id = $1",
      [cluster.id],
    ),
  ]);
  const podById = new Map(pods.rows.map((p) => [p.id, p.super_pod_id]));
  const index: TargetIndex = {
    revision: cluster.revision,
    superPods: new Map(pods.rows.map((p) => [p.super_pod_id, p.id])),
    servers: new Map(),
    serversByRef: new Map(),
    dies: new Map(),
    npus: new Set(),
    serversByHost: new Map(),
  };
  const perPod = new Map<number | null, number>();
  for (const s of servers.rows) {
    const podIndex = perPod.get(s.super_pod_ref) ?? 0;
    perPod.set(s.super_pod_ref, podIndex + 1);
    const entry: ServerEntry = {
      ref: s.id,
      serverId: s.server_id,
      superPodRef: s.super_pod_ref,
      superPodId: s.super_pod_ref === null ? null : (podById.get(s.super_pod_ref) ?? null),
      hostIp: s.host_ip,
      podIndex,
    };
    index.servers.set(s.server_id, entry);
    index.serversByRef.set(s.id, entry);
    if (s.host_ip) index.serversByHost.set(s.host_ip, entry);
  }
  for (const d of dies.rows) {
    index.dies.set(`${d.server_ref}/${d.device_id}`, { ref: d.id, npuIndex: d.npu_index });
    index.npus.add(`${d.server_ref}/${d.npu_index}`);
  }
  indexCache.set(cluster.id, index);
  return index;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Ingestion */

export type ItemStatus = "created" | "closed" | "unchanged" | "invalid";

export interface ItemResult {
  index: number;
  status: ItemStatus;
  id?: string;
  /** code (API category), English message, path, and the reason + params the console shows (lib/faults/errors.ts). */
  error?: FaultProblem;
}

export interface IngestResult {
  /** True when anything was written. */
  changed: boolean;
  counts: Record<ItemStatus, number>;
  items: ItemResult[];
}

/** A row ready to insert: target resolved, id derived, level to be decided by the rules. */
export interface PreparedEvent {
  index: number;
  id: string;
  clusterId: number;
  targetKind: TargetKind;
  targetKey: string;
  seriesKey: string;
  superPodRef: number | null;
  serverRef: number | null;
  npuIndex: number | null;
  deviceRef: number | null;
  peerDeviceRef: number | null;
  kind: FaultKind;
  source: FaultSource;
  code: string | null;
  phase: string | null;
  reportedLevel: FaultLevel;
  beganAt: number;
  endedAt: number | null;
  job: string | null;
  rankTable: string | null;
  rank: number | null;
  message: string | null;
  raw: unknown;
}

interface PreparedEnd {
  index: number;
  clusterId: number;
  seriesKey: string;
  endedAt: number;
}

class ItemError extends Error {
  constructor(readonly problem: FaultProblem) {
    super(problem.message);
  }
}

const unknownTarget = (reason: Parameters<typeof faultProblem>[0], params: Record<string, string | number>, path: string) =>
  new ItemError(faultProblem(reason, params, { code: "unknown_target", path }));

function resolveTarget(input: FaultEventInput["target"], index: TargetIndex): Omit<PreparedEvent, "index" | "id" | "clusterId" | "seriesKey" | "kind" | "source" | "code" | "phase" | "reportedLevel" | "beganAt" | "endedAt" | "job" | "rankTable" | "rank" | "message" | "raw"> {
  const server = input.server === undefined ? undefined : index.servers.get(input.server);
  if (input.server !== undefined && !server) throw unknownTarget("unknown_server", { server: input.server }, "target.server");
  let superPodRef: number | null = server?.superPodRef ?? null;
  let superPodId = server?.superPodId ?? null;
  if (input.superPod !== undefined) {
    const ref = index.superPods.get(input.superPod);
    if (ref === undefined) throw unknownTarget("unknown_super_pod", { superPod: input.superPod }, "target.superPod");
    if (server && server.superPodRef !== ref) throw unknownTarget("server_not_in_super_pod", { server: server.serverId, superPod: input.superPod }, "target.superPod");
    superPodRef = ref;
    superPodId = input.superPod;
  }
  let kind: TargetKind = server ? "server" : input.superPod !== undefined ? "super-pod" : "cluster";
  let npuIndex: number | null = input.npu ?? null;
  let deviceRef: number | null = null;
  let peerDeviceRef: number | null = null;
  const target: FaultTarget = { kind, superPodId, serverId: server?.serverId ?? null };
  if (server && input.die !== undefined) {
    const die = index.dies.get(`${server.ref}/${input.die}`);
    if (!die) throw unknownTarget("unknown_die", { server: server.serverId, die: input.die }, "target.die");
    deviceRef = die.ref;
    npuIndex = die.npuIndex;
    kind = "die";
    target.deviceId = input.die;
  } else if (server && input.npu !== undefined) {
    if (!index.npus.has(`${server.ref}/${input.npu}`)) throw unknownTarget("unknown_npu", { server: server.serverId, npu: input.npu }, "target.npu");
    kind = "npu";
    target.npuIndex = input.npu;
  }
  if (input.peer) {
    const peerServer = index.servers.get(input.peer.server);
    const peer = peerServer ? index.dies.get(`${peerServer.ref}/${input.peer.die}`) : undefined;
    if (!peer) throw unknownTarget("unknown_peer", { server: input.peer.server, die: input.peer.die }, "target.peer");
    peerDeviceRef = peer.ref;
    kind = "link";
    target.peer = { serverId: input.peer.server, deviceId: input.peer.die };
  }
  target.kind = kind;
  return { targetKind: kind, targetKey: targetKey(target), superPodRef, serverRef: server?.ref ?? null, npuIndex, deviceRef, peerDeviceRef };
}

interface ClusterContext {
  cluster: ClusterRef;
  index: TargetIndex;
  settings: FaultSettings;
}

async function clusterContexts(pool: pg.Pool, slugs: Iterable<string>): Promise<Map<string, ClusterContext | null>> {
  const contexts = new Map<string, ClusterContext | null>();
  for (const slug of slugs) {
    const cluster = await findCluster(pool, slug);
    contexts.set(slug, cluster ? { cluster, index: await loadTargetIndex(pool, cluster), settings: await getFaultSettings(pool, cluster.id) } : null);
  }
  return contexts;
}

/** Validates and resolves a batch; every problem is reported against its item. */
export async function prepareBatch(
  pool: pg.Pool,
  items: unknown[],
  now = Date.now(),
): Promise<{ events: PreparedEvent[]; ends: PreparedEnd[]; results: ItemResult[]; contexts: Map<string, ClusterContext | null> }> {
  const results: ItemResult[] = [];
  const parsed: (FaultEventInput | null)[] = items.map((item, index) => {
    const result = parseFaultEventInput(item);
    if (result.success) return result.data;
    results.push({ index, status: "invalid", error: zodIssueProblem(result.error.issues[0]!) });
    return null;
  });
  const contexts = await clusterContexts(pool, new Set(parsed.flatMap((p) => (p ? [p.cluster] : []))));
  const events: PreparedEvent[] = [];
  const ends: PreparedEnd[] = [];
  parsed.forEach((input, index) => {
    if (!input) return;
    try {
      const context = contexts.get(input.cluster);
      if (!context) throw new ItemError(faultProblem("unknown_cluster", { cluster: input.cluster }, { path: "cluster" }));
      const target = resolveTarget(input.target, context.index);
      const ending = input.action === "end" || input.kind === "roce-link-up";
      const kind: FaultKind = input.kind === "roce-link-up" ? "roce-link-down" : input.kind;
      const code = normaliseCode(input.code) ?? (input.kind === "roce-link-up" || input.kind === "roce-link-down" ? "81078603" : null);
      const series = seriesKey(target.targetKey, { kind, code });
      const latest = Math.max(input.beganAt ?? 0, input.endedAt ?? 0);
      if (latest > now + maxFutureSkewMs) throw new ItemError(faultProblem("future_time", {}, { path: "beganAt" }));
      if (ending) {
        ends.push({ index, clusterId: context.cluster.id, seriesKey: series, endedAt: (input.endedAt ?? input.beganAt)! });
        return;
      }
      const beganAt = input.beganAt!;
      events.push({
        index,
        id: stableEventId({ sourceId: input.id, source: input.source, cluster: context.cluster.slug, targetKey: target.targetKey, kind, code, beganAt }),
        clusterId: context.cluster.id,
        ...target,
        seriesKey: series,
        kind,
        source: input.source,
        code,
        phase: input.phase ?? null,
        reportedLevel: input.level ?? defaultLevelByKind[kind],
        beganAt,
        endedAt: input.endedAt ?? null,
        job: input.job ?? null,
        rankTable: input.rankTable ?? null,
        rank: input.rank ?? null,
        message: input.message ?? null,
        raw: input.raw === undefined ? (items[index] as object) : input.raw,
      });
    } catch (error) {
      if (!(error instanceof ItemError)) throw error;
      results.push({ index, status: "invalid", error: error.problem });
    }
  });
  // Two items of one batch with the same id: the second is a re-send of the first.
  return { events, ends, results, contexts };
}

/**
 * The columns of one INSERT with their types; `ms` columns are timestamps sent as epoch milliseconds (cheaper to
 * send than ISO text; `to_timestamp` is exact to the millisecond the columns keep).
 */
const insertColumns = [
  ["id", "text"],
  ["cluster_id", "int"],
  ["target_kind", "fault_target_kind"],
  ["target_key", "text"],
  ["series_key", "text"],
  ["super_pod_ref", "int"],
  ["server_ref", "int"],
  ["npu_index", "int"],
  ["device_ref", "int"],
  ["peer_device_ref", "int"],
  ["kind", "fault_kind"],
  ["source", "fault_source"],
  ["code", "text"],
  ["phase", "text"],
  ["reported_level", "fault_level"],
  ["level", "fault_level"],
  ["rule", "fault_rule"],
  ["rule_at", "ms"],
  ["release_at", "ms"],
  ["episode_id", "text"],
  ["began_at", "ms"],
  ["ended_at", "ms"],
  ["job", "text"],
  ["rank_table", "text"],
  ["rank", "int"],
  ["message", "text"],
] as const;

/**
 * Times travel as epoch ms (float8), converted in the SELECT. The raw payloads travel as one JSON array (the last
 * parameter), the n-th row's at index n - 1: one JSON.stringify and no array-literal escaping in here, the same
 * parsing in PostgreSQL. JSON null is no payload, as in the column.
 */
const insertSql = `with inserted as (
    insert into fault_events (${insertColumns.map(([name]) => name).join(", ")}, raw)
    select ${insertColumns.map(([name, type]) => (type === "ms" ? `to_timestamp(${name} / 1000)` : name)).join(", ")},
      nullif($${insertColumns.length + 1}::jsonb -> (u.n - 1)::int, 'null'::jsonb)
    from unnest(${insertColumns.map(([, type], i) => `$${i + 1}::${type === "ms" ? "float8" : type}[]`).join(", ")}) with ordinality
      as u(${insertColumns.map(([name]) => name).join(", ")}, n)
    on conflict (id) do nothing
    returning id
  )
  -- Every row inserted (the usual case) comes back as null rather than as all their ids.
  select case when count(*) = $${insertColumns.length + 2} then null else coalesce(array_agg(id), '{}') end as created from inserted`;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** An event's values for `insertSql`, in `insertColumns` order. */
function insertValues(e: PreparedEvent, j: Escalation | undefined): (string | number | null)[] {
  return [
    e.id, e.clusterId, e.targetKind, e.targetKey, e.seriesKey, e.superPodRef, e.serverRef, e.npuIndex, e.deviceRef, e.peerDeviceRef,
    e.kind, e.source, e.code, e.phase, e.reportedLevel, j?.level ?? e.reportedLevel, j?.rule ?? "reported", j?.ruleAt ?? null,
    j?.releaseAt ?? null, j?.episodeId ?? e.id, e.beganAt, e.endedAt, e.job, e.rankTable, e.rank, e.message,
  ];
}

/**
 * Inserts the events that are not stored yet, in one INSERT … SELECT FROM unnest(…), and returns the ids it
 * created. (All columns as one JSON parameter is cheaper to encode, but PostgreSQL spends several times longer
 * reading it with json[b]_to_recordset than arrays with unnest: more CPU in all, measured.) Stored ids are left
 * alone and take no row lock, so this may run before the series locks. Rows go in id order: two batches sharing
 * ids wait for each other in the same order and cannot deadlock.
 */
async function insertNewEvents(client: pg.PoolClient, events: PreparedEvent[], judged: Map<string, Escalation>): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const columns: (string | number | null)[][] = insertColumns.map(() => []);
  const raws: unknown[] = [];
  const sorted = [...events].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const event of sorted) {
    const values = insertValues(event, judged.get(event.id));
    for (let i = 0; i < values.length; i++) columns[i]!.push(values[i] ?? null);
    raws.push(event.raw ?? null);
  }
  const { rows } = await client.query<{ created: string[] | null }>(insertSql, [...columns.map(arrayLiteral), JSON.stringify(raws), sorted.length]);
  return new Set(rows[0]!.created ?? sorted.map((event) => event.id));
}

/** A re-sent begin event that now carries its end closes the stored open event. Returns the ids it closed. */
async function closeResentEvents(client: pg.PoolClient, events: PreparedEvent[]): Promise<Set<string>> {
  const closing = events.filter((e) => e.endedAt !== null);
  if (closing.length === 0) return new Set();
  const { rows } = await client.query<{ id: string }>(
    `update fault_events f set ended_at = u.ended_at from unnest($1::text[], $2::timestamptz[]) as u(id, ended_at)
     where f.id = u.id and f.ended_at is null
     returning f.id`,
    [closing.map((e) => e.id), closing.map((e) => iso(e.endedAt))],
  );
  return new Set(rows.map((row) => row.id));
}

/** Inserts new events (judged, when given) and closes stored open ones a re-send ends: id → what happened. */
export async function insertEvents(client: pg.PoolClient, events: PreparedEvent[], judged: Map<string, Escalation> = new Map()): Promise<Map<string, "created" | "closed">> {
  const created = await insertNewEvents(client, events, judged);
  const closed = await closeResentEvents(client, events.filter((e) => !created.has(e.id)));
  return new Map([...[...created].map((id) => [id, "created"] as const), ...[...closed].map((id) => [id, "closed"] as const)]);
}

/** Closes, for each end, the latest open event of its series that began before it ended. */
async function applyEnds(client: pg.PoolClient, ends: PreparedEnd[]): Promise<Map<number, ItemResult>> {
  const results = new Map<number, ItemResult>();
  if (ends.length === 0) return results;
  const byCluster = new Map<number, PreparedEnd[]>();
  for (const end of ends) byCluster.set(end.clusterId, [...(byCluster.get(end.clusterId) ?? []), end]);
  const closes: { id: string; endedAt: number }[] = [];
  for (const [clusterId, list] of byCluster) {
    const keys = [...new Set(list.map((e) => e.seriesKey))];
    const { rows } = await client.query<{ id: string; series_key: string; began_at: Date; ended_at: Date | null }>(
      `select id, series_key, began_at, ended_at from fault_events
       where cluster_id = $1 and series_key = any($2::text[])
         and (ended_at is null or ended_at = any($3::timestamptz[]))
       order by began_at`,
      [clusterId, keys, list.map((e) => iso(e.endedAt))],
    );
    const bySeries = new Map<string, { id: string; began: number; ended: number | null }[]>();
    for (const row of rows) {
      bySeries.set(row.series_key, [...(bySeries.get(row.series_key) ?? []), { id: row.id, began: row.began_at.getTime(), ended: row.ended_at?.getTime() ?? null }]);
    }
    for (const end of [...list].sort((a, b) => a.endedAt - b.endedAt)) {
      const series = bySeries.get(end.seriesKey) ?? [];
      const open = series.filter((e) => e.ended === null && e.began <= end.endedAt).at(-1);
      if (open) {
        open.ended = end.endedAt;
        closes.push({ id: open.id, endedAt: end.endedAt });
        results.set(end.index, { index: end.index, status: "closed", id: open.id });
      } else {
        const already = series.find((e) => e.ended === end.endedAt);
        results.set(
          end.index,
          already
            ? { index: end.index, status: "unchanged", id: already.id }
            : { index: end.index, status: "invalid", error: faultProblem("no_open_event") },
        );
      }
    }
  }
  if (closes.length) {
    await client.query(
      `update fault_events f set ended_at = u.ended_at from unnest($1::text[], $2::timestamptz[]) as u(id, ended_at) where f.id = u.id`,
      [closes.map((c) => c.id), closes.map((c) => iso(c.endedAt))],
    );
  }
  return results;
}

/** How far before a change the rules may rewrite earlier events (a fault it extends began within this). */
const rewriteMarginMs = 86_400_000;

/** Series locks: a key hashes to one of this many advisory locks, so a batch holds a bounded number of them. */
const seriesLockBuckets = 256;

/**
 * Serialises writers of the same series (same target and code) for the rest of the transaction, so two concurrent
 * batches never judge a series without seeing each other's events. Buckets are taken in order: no deadlocks.
 */
export async function lockSeries(client: pg.PoolClient, clusterId: number, keys: Iterable<string>): Promise<void> {
  const buckets = new Set<number>();
  for (const key of keys) buckets.add(bucketOf(`${clusterId}|${key}`));
  if (buckets.size === 0) return;
  await client.query("select pg_advisory_xact_lock(7406, b) from unnest($1::int[]) as b order by b", [[...buckets].sort((a, b) => a - b)]);
}

function bucketOf(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return (hash >>> 0) % seriesLockBuckets;
}

/** A stored event as the rules see it, with its stored judgement. Times in ms. */
interface StoredEvent extends EscalationInput, Escalation {
  seriesKey: string;
}

/** Stored events of some series, and what a later look needs to tell whether any of them changed meanwhile. */
interface History {
  bySeries: Map<string, StoredEvent[]>;
  /** How many rows were read, and the transactions that wrote them (`xmin`): a row written since has another. */
  rows: number;
  writers: Set<string>;
}

/** The columns the rules read of a stored event, in `StoredRow` order; times as epoch ms. */
const ms = (column: string) => `date_part('epoch', ${column}) * 1000`;
const storedColumns = `id, series_key, kind, code, reported_level, ${ms("began_at")}, ${ms("ended_at")}, level, rule, ${ms("rule_at")}, ${ms("release_at")},
  episode_id, xmin::text`;
type StoredRow = [string, string, FaultKind, string | null, FaultLevel, number, number | null, FaultLevel, EscalationRule, number | null, number | null, string, string];

/** Groups rows (`StoredRow`) by series: whole milliseconds, rounded back from the float. */
function historyOf(rows: StoredRow[]): History {
  const whole = (value: number | null) => (value === null ? null : Math.round(value));
  const history: History = { bySeries: new Map(), rows: rows.length, writers: new Set() };
  for (const [id, key, kind, code, reportedLevel, beganAt, endedAt, level, rule, ruleAt, releaseAt, episodeId, writer] of rows) {
    const event: StoredEvent = {
      id,
      seriesKey: key,
      kind,
      code,
      reportedLevel,
      beganAt: Math.round(beganAt),
      endedAt: whole(endedAt),
      level,
      rule,
      ruleAt: whole(ruleAt),
      releaseAt: whole(releaseAt),
      episodeId,
    };
    history.writers.add(writer);
    const series = history.bySeries.get(key);
    if (series) series.push(event);
    else history.bySeries.set(key, [event]);
  }
  return history;
}

/**
 * `columns` of the stored events ($1 cluster, $2 series keys, $3 from), as `from` items: one probe of
 * `fault_events_series` per key. Written as `series_key = any($2)`, PostgreSQL misjudges how many rows the keys hold
 * and scans the whole time range instead (the BRIN on began_at is lossy once judgements rewrite rows, the target
 * index filters thousands): several times the CPU, measured. `offset 0` keeps the subquery from being flattened.
 */
const seriesScan = (columns: string) => `unnest($2::text[]) as k(key) cross join lateral (
    select ${columns} from fault_events where cluster_id = $1 and series_key = k.key and began_at >= $3::timestamptz offset 0
  ) f`;

/**
 * The stored events of some series from `from` on, by series. Rows come as arrays with times as epoch ms (float8
 * `date_part`: cheap on both sides, unlike numeric `extract`, timestamp text or a JSON aggregate, measured).
 */
async function loadSeries(client: pg.PoolClient | pg.Pool, clusterId: number, keys: string[], from: number): Promise<History> {
  const { rows } = await client.query<StoredRow>({
    text: `select f.* from ${seriesScan(storedColumns)}`,
    values: [clusterId, keys, iso(from)],
    rowMode: "array",
  });
  return historyOf(rows);
}

/** Rows this transaction did not write (`xmin` holds the low 32 bits of the writer's transaction id). */
const notOwnRow = "xmin::text::bigint <> pg_current_xact_id()::text::bigint % 4294967296";

/**
 * True when no other transaction finished (committed, or rolled back) between `snapshot` (a `pg_snapshot` taken
 * earlier in this transaction) and this statement's snapshot, so both see the same committed rows: none of the
 * transactions then in progress is seen as finished now, and none started since (from its `xmax` on) is either.
 */
export function noneFinishedSince(snapshot: string): string {
  return `not exists (select from pg_snapshot_xip(${snapshot}::pg_snapshot) x where pg_visible_in_snapshot(x, pg_current_snapshot()))
    and not exists (
      select from generate_series(pg_snapshot_xmax(${snapshot}::pg_snapshot)::text::bigint, pg_snapshot_xmax(pg_current_snapshot())::text::bigint - 1) x
      where x is distinct from pg_current_xact_id_if_assigned()::text::bigint and pg_visible_in_snapshot(x::text::xid8, pg_current_snapshot()))`;
}

/**
 * What other transactions did to these series since `history` was read (with `snapshot` taken before): nothing;
 * or the rows they added or changed (a changed row is a new row version, with its writer's `xmin`); or null when
 * rows were removed too, which only a fresh read accounts for. Rows this transaction wrote are left aside. One
 * statement and one scan, or none (a one-time filter) when no other transaction finished since `snapshot`: what is
 * committed is then what was read. The scan keeps only where each row is and who wrote it; the columns are read for
 * the few changed rows (by `ctid`, in the same snapshot): a third less CPU than carrying them for every row.
 */
async function historyChanges(client: pg.PoolClient, clusterId: number, keys: string[], from: number, history: History, snapshot: string): Promise<History | null> {
  const { rows } = await client.query<StoredRow>({
    text: `with quiet as materialized (select ${noneFinishedSince("$5")} as quiet),
       current as materialized (
         select f.* from ${seriesScan("ctid, xmin")}
         where not (select quiet from quiet) and f.${notOwnRow}
       )
       select ${storedColumns} from fault_events where ctid = any(array(select ctid from current where not (xmin::text = any($4::text[]))))
       union all
       select null, null, null, null, null, null, null, null, null, null, null, (select quiet from quiet)::text, (select count(*) from current)::text`,
    values: [clusterId, keys, iso(from), [...history.writers], snapshot],
    rowMode: "array",
  });
  // The last row: whether nothing finished since `snapshot`, and how many rows there are now.
  const summary = rows.pop()!;
  const count = Number(summary[12]);
  const changes = historyOf(rows);
  if (summary[11] === "true") return changes;
  if (rows.length === 0) return count === history.rows ? changes : null;
  const known = new Set<string>();
  for (const series of history.bySeries.values()) for (const event of series) known.add(event.id);
  let added = 0;
  for (const series of changes.bySeries.values()) for (const event of series) if (!known.has(event.id)) added++;
  return history.rows + added === count ? changes : null;
}

/** Where the rules' context for a change at `since` starts: the look-back before the earliest event it may rewrite. */
function contextFrom(settings: EscalationSettings, since: number): number {
  return since - lookbackMs(settings) - rewriteMarginMs;
}

type Rejudgement = Escalation & { id: string; seriesKey: string };

/**
 * Judges each series (stored events plus `fresh` ones about to be inserted): the fresh events' judgements, and the
 * stored events from `writeFrom` on whose judgement changed. Rows before it are context only (to count and merge
 * what came before): judged without their own history they could come out differently.
 */
function judgeSeries(
  history: History,
  fresh: Map<string, EscalationInput[]>,
  settings: EscalationSettings,
  now: number,
  writeFrom: number,
): { judged: Map<string, Escalation>; changed: Rejudgement[] } {
  const judged = new Map<string, Escalation>();
  const changed: Rejudgement[] = [];
  for (const key of new Set([...history.bySeries.keys(), ...fresh.keys()])) {
    const stored = history.bySeries.get(key) ?? [];
    const incoming = fresh.get(key) ?? [];
    const result = evaluateSeries(incoming.length ? [...stored, ...incoming] : stored, settings, now);
    for (const event of incoming) judged.set(event.id, result.get(event.id)!);
    for (const row of stored) {
      if (row.beganAt < writeFrom) continue;
      const r = result.get(row.id)!;
      if (r.level !== row.level || r.rule !== row.rule || r.episodeId !== row.episodeId || r.ruleAt !== row.ruleAt || r.releaseAt !== row.releaseAt) {
        changed.push({ id: row.id, seriesKey: row.seriesKey, ...r });
      }
    }
  }
  return { judged, changed };
}

/** The UPDATE storing changed judgements, its six parameters from `$first` on (values: `judgementValues`). */
const judgementUpdate = (first: number) => {
  const p = (i: number) => `$${first + i}`;
  return `update fault_events f set level = u.level, rule = u.rule, rule_at = u.rule_at, release_at = u.release_at, episode_id = u.episode_id
     from unnest(${p(0)}::text[], ${p(1)}::fault_level[], ${p(2)}::fault_rule[], ${p(3)}::timestamptz[], ${p(4)}::timestamptz[], ${p(5)}::text[])
       as u(id, level, rule, rule_at, release_at, episode_id)
     where f.id = u.id`;
};

const judgementValues = (changed: Rejudgement[]) => [
  changed.map((u) => u.id), changed.map((u) => u.level), changed.map((u) => u.rule), changed.map((u) => iso(u.ruleAt)), changed.map((u) => iso(u.releaseAt)), changed.map((u) => u.episodeId),
];

async function storeJudgements(client: pg.PoolClient | pg.Pool, changed: Rejudgement[]): Promise<void> {
  if (changed.length === 0) return;
  await client.query(judgementUpdate(1), judgementValues(changed));
}

/**
 * The end of a batch that wrote something, as one statement (one round trip while the series locks are held, which
 * concurrent batches of the same series wait for): the judgements that changed, the audit entry and the NOTIFY
 * (delivered at commit).
 */
async function finishBatch(client: pg.PoolClient, changed: Rejudgement[], audit: AuditRecord, notices: FaultNotice[]): Promise<void> {
  const entry = auditInsert(drizzle(client), audit).toSQL();
  const next = entry.params.length + 1;
  await client.query(
    `with audit as (${entry.sql}), judged as (${judgementUpdate(next)})
     select pg_notify($${next + 6}, notice) from unnest($${next + 7}::text[]) as notice`,
    [...entry.params, ...judgementValues(changed), faultChannel, notices.map((notice) => JSON.stringify(notice))],
  );
}

/** A judgement of new events against the stored history of their series, to be confirmed under the series locks. */
interface Provisional {
  clusterId: number;
  keys: string[];
  from: number;
  writeFrom: number;
  history: History;
  /** The new events, by series. */
  fresh: Map<string, EscalationInput[]>;
  /** Judgements of the new events, stored with them. */
  judged: Map<string, Escalation>;
  /** Stored events whose judgement the new ones change. */
  changed: Rejudgement[];
  /** This transaction's snapshot from before `history` was read. */
  snapshot: string;
}

/**
 * Judges events about to be inserted together with the stored history of their series (as committed when this
 * runs), and which stored events they change. Nothing is written.
 */
async function judgeIncoming(client: pg.PoolClient, clusterId: number, settings: EscalationSettings, incoming: PreparedEvent[], now: number): Promise<Provisional> {
  const since = incoming.length ? Math.min(...incoming.map((e) => e.beganAt)) : now;
  const keys = [...new Set(incoming.map((e) => e.seriesKey))];
  const from = contextFrom(settings, since);
  const { rows } = await client.query<{ snapshot: string }>("select pg_current_snapshot()::text as snapshot");
  const history: History = keys.length ? await loadSeries(client, clusterId, keys, from) : { bySeries: new Map(), rows: 0, writers: new Set() };
  const storedIds = new Set<string>();
  for (const series of history.bySeries.values()) for (const event of series) storedIds.add(event.id);
  const fresh = new Map<string, EscalationInput[]>();
  for (const event of incoming) {
    // A re-send of a stored event is not inserted again (if it closes the event, the batch is judged again later).
    if (storedIds.has(event.id)) continue;
    const input: EscalationInput = { id: event.id, kind: event.kind, code: event.code, reportedLevel: event.reportedLevel, beganAt: event.beganAt, endedAt: event.endedAt };
    const list = fresh.get(event.seriesKey);
    if (list) list.push(input);
    else fresh.set(event.seriesKey, [input]);
  }
  const writeFrom = since - rewriteMarginMs;
  return { clusterId, keys, from, writeFrom, history, fresh, snapshot: rows[0]!.snapshot, ...judgeSeries(history, fresh, settings, now, writeFrom) };
}

/**
 * Under the series locks: the stored events whose judgement must change, given what other transactions wrote to
 * these series since `provisional` was made (their rows merged into what was read, this batch's `created` events
 * with the judgement they were stored with), or null when only judging again from a fresh read will do.
 */
async function confirmJudgement(client: pg.PoolClient, provisional: Provisional, created: Set<string>, settings: EscalationSettings, now: number): Promise<Rejudgement[] | null> {
  const { clusterId, keys, from, history, fresh, judged } = provisional;
  const changes = await historyChanges(client, clusterId, keys, from, history, provisional.snapshot);
  if (!changes) return null;
  if (changes.rows === 0) return provisional.changed;
  // Only the series other batches wrote to are judged again; the others keep the first judgement.
  const current = new Map<string, StoredEvent>();
  for (const series of changes.bySeries.values()) for (const event of series) current.set(event.id, event);
  const merged: History = { bySeries: new Map(), rows: 0, writers: new Set() };
  const add = (event: StoredEvent) => {
    const series = merged.bySeries.get(event.seriesKey);
    if (series) series.push(event);
    else merged.bySeries.set(event.seriesKey, [event]);
  };
  for (const [key, series] of history.bySeries) {
    if (!changes.bySeries.has(key)) continue;
    for (const event of series) {
      add(current.get(event.id) ?? event);
      current.delete(event.id);
    }
  }
  for (const event of current.values()) add(event);
  for (const key of changes.bySeries.keys()) {
    for (const event of fresh.get(key) ?? []) if (created.has(event.id)) add({ ...event, ...judged.get(event.id)!, seriesKey: key });
  }
  const unaffected = provisional.changed.filter((r) => !changes.bySeries.has(r.seriesKey));
  return [...unaffected, ...judgeSeries(merged, new Map(), settings, now, provisional.writeFrom).changed];
}

/**
 * Re-evaluates the escalation rules for the series a change touched (from the earliest changed begin minus the
 * rules' look-back) and stores the results that differ. Returns the number of rows whose judgement changed.
 */
export async function reevaluateSeries(
  client: pg.PoolClient | pg.Pool,
  clusterId: number,
  settings: EscalationSettings,
  keys: string[],
  since: number,
  now = Date.now(),
): Promise<{ updated: number }> {
  const changed = await rejudgeSeries(client, clusterId, settings, keys, since, now);
  await storeJudgements(client, changed);
  return { updated: changed.length };
}

/** `reevaluateSeries` without storing: the judgements that change. */
async function rejudgeSeries(client: pg.PoolClient | pg.Pool, clusterId: number, settings: EscalationSettings, keys: string[], since: number, now: number): Promise<Rejudgement[]> {
  if (keys.length === 0) return [];
  const history = await loadSeries(client, clusterId, keys, contextFrom(settings, since));
  return judgeSeries(history, new Map(), settings, now, since - rewriteMarginMs).changed;
}

export interface FaultNotice {
  clusterId: number;
  slug: string;
  changed: number;
  at: number;
}

/** Runs `work` in a transaction on one pooled client; the NOTIFY goes out when it commits. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    const result = await work(client);
    await client.query("commit");
    return result;
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** PostgreSQL's deadlock_detected: the transaction was rolled back and may simply run again. */
const deadlockDetected = "40P01";
const deadlockAttempts = 3;

/** `inTransaction`, run again (up to 3 times) when PostgreSQL rolled it back to break a deadlock. */
async function inRetriedTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(pool, work);
    } catch (error) {
      if (attempt >= deadlockAttempts || (error as { code?: unknown }).code !== deadlockDetected) throw error;
    }
  }
}

export async function notify(client: pg.PoolClient, notices: FaultNotice[]): Promise<void> {
  for (const notice of notices) await client.query("select pg_notify($1, $2)", [faultChannel, JSON.stringify(notice)]);
}

/**
 * Takes a batch of events. `atomic: "all"`: any invalid item and nothing is written (the result lists every
 * problem); `"item"`: the valid items are written and the invalid ones reported. Re-sending changes nothing and
 * every item says "unchanged".
 *
 * Concurrent batches: new events are judged against the committed history and inserted without any series lock
 * (the bulk of the work, so batches of the same series insert in parallel); then, holding the series locks until
 * commit, the batch applies its ends and confirms the judgement, corrected for the events other batches committed
 * to its series meanwhile (read by `xmin`: only what changed). Of two batches touching a series, the second to lock
 * sees the first's events.
 */
export async function ingestFaultEvents(
  handle: DatabaseHandle,
  items: unknown[],
  options: { atomic: "all" | "item"; actor: AuditActor; now?: number; dryRun?: boolean },
): Promise<IngestResult> {
  const now = options.now ?? Date.now();
  const { events, ends, results, contexts } = await prepareBatch(handle.pool, items, now);
  const counts: Record<ItemStatus, number> = { created: 0, closed: 0, unchanged: 0, invalid: 0 };
  const done = (items: ItemResult[]): IngestResult => {
    items.sort((a, b) => a.index - b.index);
    for (const item of items) counts[item.status]++;
    return { changed: counts.created + counts.closed > 0, counts, items };
  };
  if (options.atomic === "all" && results.length > 0) return done(results);
  if (options.dryRun) {
    // What would happen, without writing: new ids would be created, known ones left alone (ends are only checked).
    const { rows } = await handle.pool.query<{ id: string }>("select id from fault_events where id = any($1::text[])", [events.map((e) => e.id)]);
    const known = new Set(rows.map((r) => r.id));
    const preview = [...results];
    for (const event of events) preview.push({ index: event.index, status: known.has(event.id) ? "unchanged" : "created", id: event.id });
    for (const end of ends) preview.push({ index: end.index, status: "closed" });
    return { ...done(preview), changed: false };
  }
  // Within one batch, the same id twice is one event: the later copy is a re-send.
  const unique = new Map<string, PreparedEvent>();
  const duplicates: PreparedEvent[] = [];
  for (const event of events) {
    if (unique.has(event.id)) duplicates.push(event);
    else unique.set(event.id, event);
  }
  const contextOf = (clusterId: number) => [...contexts.values()].find((c) => c?.cluster.id === clusterId)!;
  const clusterIds = [...new Set([...events.map((e) => e.clusterId), ...ends.map((e) => e.clusterId)])];
  const written = await inRetriedTransaction(handle.pool, async (client) => {
    const provisional = new Map<number, Provisional>();
    const judged = new Map<string, Escalation>();
    for (const clusterId of clusterIds) {
      const incoming = [...unique.values()].filter((e) => e.clusterId === clusterId);
      const judgement = await judgeIncoming(client, clusterId, contextOf(clusterId).settings.escalation, incoming, now);
      provisional.set(clusterId, judgement);
      for (const [id, escalation] of judgement.judged) judged.set(id, escalation);
    }
    const created = await insertNewEvents(client, [...unique.values()], judged);
    for (const clusterId of clusterIds) {
      await lockSeries(client, clusterId, [...events, ...ends].filter((e) => e.clusterId === clusterId).map((e) => e.seriesKey));
    }
    // Under the locks: ends close stored events (or ones this batch just inserted); a re-sent begin with its end
    // closes the stored event.
    const endResults = await applyEnds(client, ends);
    if (options.atomic === "all" && [...endResults.values()].some((r) => r.status === "invalid")) {
      throw new BatchRejected([...results, ...endResults.values()].filter((r) => r.status === "invalid"));
    }
    const closed = await closeResentEvents(client, [...unique.values()].filter((e) => !created.has(e.id)));
    const touched = new Map<number, { keys: Set<string>; since: number; closes: boolean }>();
    const touch = (clusterId: number, key: string, at: number, closes: boolean) => {
      const entry = touched.get(clusterId) ?? { keys: new Set<string>(), since: at, closes: false };
      entry.keys.add(key);
      entry.since = Math.min(entry.since, at);
      entry.closes ||= closes;
      touched.set(clusterId, entry);
    };
    for (const event of unique.values()) if (created.has(event.id) || closed.has(event.id)) touch(event.clusterId, event.seriesKey, event.beganAt, closed.has(event.id));
    for (const end of ends) if (endResults.get(end.index)?.status === "closed") touch(end.clusterId, end.seriesKey, end.endedAt - lookbackMs(defaultEscalationSettings), true);
    const rejudged: Rejudgement[] = [];
    for (const [clusterId, { keys, since, closes }] of touched) {
      // A batch that only added events confirms the judgement it made before the locks, corrected for what other
      // batches wrote meanwhile; one that closed events judges its series again from what is stored now.
      const settings = contextOf(clusterId).settings.escalation;
      const confirmed = closes ? null : await confirmJudgement(client, provisional.get(clusterId)!, created, settings, now);
      rejudged.push(...(confirmed ?? (await rejudgeSeries(client, clusterId, settings, [...keys], since, now))));
    }
    const itemResults: ItemResult[] = [...results, ...endResults.values()];
    for (const event of unique.values()) {
      itemResults.push({ index: event.index, status: created.has(event.id) ? "created" : closed.has(event.id) ? "closed" : "unchanged", id: event.id });
    }
    for (const event of duplicates) itemResults.push({ index: event.index, status: "unchanged", id: event.id });
    const changed = itemResults.filter((r) => r.status === "created" || r.status === "closed").length;
    // Judgements only change in series this batch wrote to (`touched`): then `changed` is not 0.
    if (changed) {
      const notices: FaultNotice[] = [...touched.keys()].map((clusterId) => ({ clusterId, slug: contextOf(clusterId).cluster.slug, changed, at: now }));
      const audit: AuditRecord = {
        actor: options.actor,
        action: "fault_events.ingest",
        target: notices.length === 1 ? { type: "cluster", id: notices[0]!.slug } : undefined,
        details: { items: items.length, changed, clusters: notices.map((n) => n.slug) },
      };
      await finishBatch(client, rejudged, audit, notices);
    }
    return itemResults;
  }).catch((error: unknown) => {
    if (error instanceof BatchRejected) return error.items;
    throw error;
  });
  return done(written);
}

class BatchRejected extends Error {
  constructor(readonly items: ItemResult[]) {
    super("batch rejected");
  }
}
