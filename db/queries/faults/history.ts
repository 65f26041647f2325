import type pg from "pg";
import type { Escalation, EscalationInput, EscalationSettings } from "@/lib/faults/escalation";
import type { FaultLevel } from "@/lib/faults/levels";
import type { EscalationRule, FaultKind } from "@/lib/faults/model";
import { TimeSlices } from "@/lib/time-slices";
import { iso } from "./model";
import { escaped, ms, msOf, msOrNone, textOf, textOrNone, unescaped } from "./packed-text";

/* The stored events of some series, as the escalation rules read them: all of them from a time on, or their tails. */

/** A stored event as the rules see it, with its stored judgement. Times in ms. */
export interface StoredEvent extends EscalationInput, Escalation {
  seriesKey: string;
}

/**
 * Stored events of some series, by series. `contextOnly`: events read only for what the rules count before the
 * events being judged (earlier faults' starts): judged without their own history, they are never written back.
 */
export interface History {
  bySeries: Map<string, StoredEvent[]>;
  rows: number;
  contextOnly: Set<string>;
}

/** The columns read of a stored event, for `packedLine`. */
const storedColumns = "id, kind, code, reported_level, began_at, ended_at, level, rule, rule_at, release_at, episode_id";

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
 * A stored event (`f`, of the series at place `n` of the keys) as ONE line of text, its fields comma-separated: the
 * key's place (negative: context only), kind, reported level, began, ended, level, rule, rule at, release at, id,
 * episode (empty: the event's own id), code (empty: none). A history is thousands of rows a batch when a series is
 * busy and must be read in full (`loadSeries`): as packed text (packed-text.ts), not rows.
 */
const packedLine = (n: string, ended: string) => `concat_ws(',', ${n}, f.kind, f.reported_level, ${ms("f.began_at")}, ${ended}, f.level, f.rule,
    ${msOrNone("f.rule_at")}, ${msOrNone("f.release_at")}, ${escaped("f.id")}, case when f.episode_id = f.id then '' else ${escaped("f.episode_id")} end,
    ${textOrNone("f.code")})`;

/** Every stored event of the series from $3 on. */
const packedRows = `select string_agg(${packedLine("k.n", msOrNone("f.ended_at"))}, E'\\n') as packed from ${seriesScan(storedColumns)}`;

/** `packedRows`' text as a history (`keys`: the series keys the query was given, in order). */
async function unpackHistory(packed: string | null, keys: string[]): Promise<History> {
  const history: History = { bySeries: new Map(), rows: 0, contextOnly: new Set() };
  if (packed === null) return history;
  const slices = new TimeSlices();
  for (const line of packed.split("\n")) {
    if (slices.due()) await slices.pause();
    const [n, kind, reportedLevel, beganAt, endedAt, level, rule, ruleAt, releaseAt, id, episode, code] = line.split(",") as [string, ...string[]];
    const place = Number(n);
    const key = keys[Math.abs(place) - 1]!;
    const eventId = unescaped(id!);
    if (place < 0) history.contextOnly.add(eventId);
    const event: StoredEvent = {
      id: eventId,
      seriesKey: key,
      kind: kind as FaultKind,
      code: textOf(code!),
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
 * The tails of some series ($1 cluster, $2 keys, $3 from each key on, epoch ms): what the rules need to judge the
 * events from there on, however long the series' history is. The fault that holds the last stored event before
 * `from` (its first event, by `episode_id`) may be extended, so everything from its begin on is read; the faults
 * before it are only counted by the frequency rule, which needs to know whether `times` of them began within its
 * window: their first events, the last $4 of them (`times` − 1 of the strictest rule), are read as context only,
 * each ending where it began (one fault ended at least the recover timeout before the next began, so nothing
 * merges them). Before, a batch read a day and more of every series it wrote to: at the load bench's density, most
 * of the table (issue 20, item 7). $5/$6 (`confirmSeriesTails`): the keys are read only when another transaction
 * finished since the snapshot $5, else only the keys $6; the first column says which.
 */
const packedTails = (confirming: boolean) => `with ${confirming ? `quiet as materialized (select ${noneFinishedSince("$5")} as quiet),` : ""}
  anchors as materialized (
    select k.key, k.n, coalesce(b.first_began, b.began_at, to_timestamp(k.at / 1000)) as began_at
    from unnest($2::text[], $3::float8[]) with ordinality as k(key, at, n)
    left join lateral (
      select l.began_at, (select e.began_at from fault_events e where e.id = l.episode_id) as first_began
      from fault_events l where l.cluster_id = $1 and l.series_key = k.key and l.began_at < to_timestamp(k.at / 1000)
      order by l.began_at desc limit 1
    ) b on true
    ${confirming ? "where not (select quiet from quiet) or k.key = any($6::text[])" : ""}
  )
  select ${confirming ? "(select quiet from quiet)" : "true"} as quiet, pg_current_snapshot()::text as snapshot, (select string_agg(line, E'\\n') from (
    select ${packedLine("k.n", msOrNone("f.ended_at"))} as line from anchors k cross join lateral (
      select ${storedColumns} from fault_events where cluster_id = $1 and series_key = k.key and began_at >= k.began_at offset 0
    ) f
    union all
    select ${packedLine("-k.n", ms("f.began_at"))} from anchors k cross join lateral (
      select ${storedColumns} from fault_events where cluster_id = $1 and series_key = k.key and began_at < k.began_at and id = episode_id
      order by began_at desc limit $4
    ) f
  ) lines) as packed`;

/** How many earlier faults' starts the tails carry: the frequency rule counts up to `times`, the fault judged included. */
const startsKept = (settings: EscalationSettings) => Math.max(1, ...settings.frequency.map((rule) => rule.times)) - 1;

/** The tails of the series `keys`, each from `from[i]` on (`packedTails`), and the snapshot they were read in. */
export async function loadSeriesTails(client: pg.PoolClient, clusterId: number, keys: string[], from: number[], settings: EscalationSettings): Promise<{ snapshot: string; history: History }> {
  const { rows } = await client.query<{ snapshot: string; packed: string | null }>(packedTails(false), [clusterId, keys, from, startsKept(settings)]);
  return { snapshot: rows[0]!.snapshot, history: await unpackHistory(rows[0]!.packed, keys) };
}

/**
 * Under the series locks: the tails again, of every key when another transaction finished since `snapshot` (it may
 * have written to these series), else only of `always`; `quiet` says which. One statement either way.
 */
export async function confirmSeriesTails(
  client: pg.PoolClient,
  clusterId: number,
  keys: string[],
  from: number[],
  settings: EscalationSettings,
  snapshot: string,
  always: string[],
): Promise<{ quiet: boolean; history: History }> {
  const { rows } = await client.query<{ quiet: boolean; packed: string | null }>(packedTails(true), [clusterId, keys, from, startsKept(settings), snapshot, always]);
  return { quiet: rows[0]!.quiet, history: await unpackHistory(rows[0]!.packed, keys) };
}
