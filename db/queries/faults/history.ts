import type pg from "pg";
import type { Escalation, EscalationInput } from "@/lib/faults/escalation";
import type { FaultLevel } from "@/lib/faults/levels";
import type { EscalationRule, FaultKind } from "@/lib/faults/model";
import { TimeSlices } from "@/lib/time-slices";
import { iso } from "./model";

/* The stored events of some series, as the escalation rules read them, and what changed in them since a read. */

/** A stored event as the rules see it, with its stored judgement. Times in ms. */
export interface StoredEvent extends EscalationInput, Escalation {
  seriesKey: string;
}

/** Stored events of some series, and what a later look needs to tell whether any of them changed meanwhile. */
export interface History {
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
 * `fault_events_series` per key (`k.n`: the key's place in $2, from 1). Written as `series_key = any($2)`, PostgreSQL
 * misjudges how many rows the keys hold and scans the whole time range instead (the BRIN on began_at is lossy once
 * judgements rewrite rows, the target index filters thousands): several times the CPU, measured. `offset 0` keeps
 * the subquery from being flattened.
 */
const seriesScan = (columns: string) => `unnest($2::text[]) with ordinality as k(key, n) cross join lateral (
    select ${columns} from fault_events where cluster_id = $1 and series_key = k.key and began_at >= $3::timestamptz offset 0
  ) f`;

/**
 * Text that may hold anything (ids, codes: what a feeder sent) as a field of `packedRows`: backslash, comma and line
 * feed escaped (\\ \c \n), so neither separator ever appears inside a field; the empty text is \e, so that an empty
 * field can mean "none" (NULL, or for the episode "this event's own id").
 */
const escaped = (column: string) => `case when ${column} = '' then '\\e' else replace(replace(replace(${column}, '\\', '\\\\'), ',', '\\c'), E'\\n', '\\n') end`;
const msOrNone = (column: string) => `coalesce((${ms(column)})::text, '')`;

/**
 * The stored events of the series as ONE text, a line per event and its fields comma-separated: the key's place, kind,
 * reported level, began, ended, level, rule, rule at, release at, writer (xmin), id, episode (empty: the event's own
 * id), code (empty: none). A history is thousands of rows a batch when a series is busy (every event of the last day
 * and then some); as rows, node-postgres spent twice the CPU on their messages and a dozen fields each that the
 * judgement did, and PostgreSQL a third more on sending them (measured: 19,000 rows, 110 ms of Node.js CPU and 80 of
 * PostgreSQL's as rows, 30 and 90 as this text).
 */
const packedRows = `select string_agg(concat_ws(',', k.n, f.kind, f.reported_level, ${ms("f.began_at")}, ${msOrNone("f.ended_at")}, f.level, f.rule,
    ${msOrNone("f.rule_at")}, ${msOrNone("f.release_at")}, f.xmin, ${escaped("f.id")}, case when f.episode_id = f.id then '' else ${escaped("f.episode_id")} end,
    coalesce(${escaped("f.code")}, '')), E'\\n') as packed
  from ${seriesScan("id, kind, code, reported_level, began_at, ended_at, level, rule, rule_at, release_at, episode_id, xmin")}`;

const unescapes: Record<string, string> = { "\\": "\\", c: ",", n: "\n", e: "" };
const unescaped = (field: string) => (field.includes("\\") ? field.replace(/\\(.)/g, (_, c: string) => unescapes[c] ?? c) : field);
const msOf = (field: string) => (field === "" ? null : Math.round(Number(field)));

/** `packedRows`' text as a history (`keys`: the series keys the query was given, in order). */
async function unpackHistory(packed: string | null, keys: string[]): Promise<History> {
  const history: History = { bySeries: new Map(), rows: 0, writers: new Set() };
  if (packed === null) return history;
  const slices = new TimeSlices();
  for (const line of packed.split("\n")) {
    if (slices.due()) await slices.pause();
    const [n, kind, reportedLevel, beganAt, endedAt, level, rule, ruleAt, releaseAt, writer, id, episode, code] = line.split(",") as [string, ...string[]];
    const key = keys[Number(n) - 1]!;
    const eventId = unescaped(id!);
    const event: StoredEvent = {
      id: eventId,
      seriesKey: key,
      kind: kind as FaultKind,
      code: code === "" ? null : unescaped(code!),
      reportedLevel: reportedLevel as FaultLevel,
      beganAt: Math.round(Number(beganAt)),
      endedAt: msOf(endedAt!),
      level: level as FaultLevel,
      rule: rule as EscalationRule,
      ruleAt: msOf(ruleAt!),
      releaseAt: msOf(releaseAt!),
      episodeId: episode === "" ? eventId : unescaped(episode!),
    };
    history.rows++;
    history.writers.add(writer!);
    const series = history.bySeries.get(key);
    if (series) series.push(event);
    else history.bySeries.set(key, [event]);
  }
  return history;
}

/**
 * The stored events of some series from `from` on, by series (times as epoch ms: float8 `date_part`, cheap on both
 * sides, unlike numeric `extract` or timestamp text, measured).
 */
export async function loadSeries(client: pg.PoolClient | pg.Pool, clusterId: number, keys: string[], from: number): Promise<History> {
  const { rows } = await client.query<{ packed: string | null }>(packedRows, [clusterId, keys, iso(from)]);
  return await unpackHistory(rows[0]?.packed ?? null, keys);
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
export async function historyChanges(client: pg.PoolClient, clusterId: number, keys: string[], from: number, history: History, snapshot: string): Promise<History | null> {
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
