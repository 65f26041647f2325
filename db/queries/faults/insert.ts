import type pg from "pg";
import type { Escalation } from "@/lib/faults/escalation";
import { faultProblem } from "@/lib/faults/errors";
import { arrayLiteral } from "../pg-array";
import { iso, type ItemResult, type PreparedEnd, type PreparedEvent } from "./model";

/* Writes of events: new rows in one INSERT, closes of open ones by re-sends and end events. */

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
export async function insertNewEvents(client: pg.PoolClient, events: PreparedEvent[], judged: Map<string, Escalation>): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const columns: (string | number | null)[][] = insertColumns.map(() => []);
  const raws: unknown[] = [];
  const sorted = [...events].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const event of sorted) {
    const values = insertValues(event, judged.get(event.id));
    for (let i = 0; i < values.length; i++) columns[i]!.push(values[i] ?? null);
    raws.push(event.raw ?? null);
  }
  // A generic plan: a custom one folds the parameters into the plan as constants, copying every array and the raw
  // payloads' jsonb (megabytes for a judgement group) twice while planning, ~5 % of PostgreSQL's CPU for the
  // judgement (perf, issue 20); this plan does not depend on their values.
  await client.query("set local plan_cache_mode = force_generic_plan");
  const { rows } = await client.query<{ created: string[] | null }>(insertSql, [...columns.map(arrayLiteral), JSON.stringify(raws), sorted.length]);
  await client.query("set local plan_cache_mode = default");
  return new Set(rows[0]!.created ?? sorted.map((event) => event.id));
}

/** A re-sent begin event that now carries its end closes the stored open event. Returns the ids it closed. */
export async function closeResentEvents(client: pg.PoolClient, events: PreparedEvent[]): Promise<Set<string>> {
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
export async function applyEnds(client: pg.PoolClient, ends: PreparedEnd[]): Promise<Map<number, ItemResult>> {
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

