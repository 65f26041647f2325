import type pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { testDatabase } from "@/test/database";
import { directStatistics, eventTargets, insertEvents, nextEventId, random, randomEvents, type EventRow, type EventTarget } from "@/test/fault-events";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import { seedDemo } from "../../seed";
import { timelineQuerySchema } from "../../schema/fault-event/validation";
import { getClusterOrThrow } from "../clusters";
import { refreshFaultRollups } from "./rollups";
import { faultStatistics } from "./statistics";
import { listTimeline } from "./timeline";

const hour = 3_600_000;
const t0 = Date.parse("2026-11-01T00:00:00Z");
const now = t0 + 4 * 24 * hour + 17 * 60_000;
let cluster: ClusterHeader;
let pool: pg.Pool;
let targets: EventTarget[] = [];
const insert = (rows: EventRow[]) => insertEvents(pool, cluster.id, rows);

/** Periods: whole days and hours, ragged edges, shorter than an hour, ending in the future, before any event. */
const periods: [string, number, number][] = [
  ["four whole days", t0, t0 + 4 * 24 * hour],
  ["ragged edges", t0 + 5 * hour + 17 * 60_000 + 123, t0 + 3 * 24 * hour + 11 * 60_000],
  ["one day from mid-day", t0 + 30 * hour + 1, t0 + 54 * hour + 59_999],
  ["under an hour", t0 + 40 * hour + 5 * 60_000, t0 + 40 * hour + 50 * 60_000],
  ["ending after now", t0 + 2 * 24 * hour + 7 * 60_000, now + 26 * hour],
  ["before every event", t0 - 3 * 24 * hour, t0 - hour],
];

async function expectRollupsMatch(): Promise<void> {
  for (const [label, from, to] of periods) {
    const direct = await directStatistics(pool, cluster, from, to, now);
    const rolled = await faultStatistics(pool, cluster, from, to, now);
    const { mttrMs, ...rest } = rolled;
    const { mttrMs: directMttr, ...directRest } = direct;
    expect(rest, label).toEqual(directRest);
    if (directMttr === null) expect(mttrMs, label).toBeNull();
    else expect(mttrMs, label).toBeCloseTo(directMttr, 3);
  }
}

beforeAll(async () => {
  ({ pool } = testDatabase());
  await seedDemo(testDatabase().db, [demoA3Cluster(2, 3)]);
  cluster = await getClusterOrThrow(testDatabase().db, "atlas-a3-demo");
  targets = await eventTargets(pool, cluster.id);
});

describe("statistics from rollups", () => {
  it("equal the direct computation as events arrive, end late, flap, change level and are deleted", async () => {
    const next = random(7);
    const rows = randomEvents(next, targets, 1500, [t0 - 2 * 24 * hour, now - hour]);
    await insert(rows);
    await expectRollupsMatch();

    // A fault of one event becomes a flapping one: only a later event, hours after, arrives.
    const grown = rows.find((r) => r.episode === r.id && r.ended !== null && r.began > t0 + hour && r.began < t0 + 40 * hour)!;
    await insert([{ ...grown, id: nextEventId(), began: grown.ended! + 2 * hour, ended: grown.ended! + 3 * hour }]);
    await expectRollupsMatch();

    // Late arrivals into hours already rolled up.
    await insert(randomEvents(next, targets, 300, [t0, now]));
    await expectRollupsMatch();

    // Open events end (some far later), levels are re-judged, episodes merge, some events are deleted.
    const open = rows.filter((r) => r.ended === null);
    expect(open.length).toBeGreaterThan(20);
    await pool.query(
      `update fault_events set ended_at = began_at + (case when id like '%1' then interval '30 hours' else interval '40 minutes' end) where id = any($1::text[])`,
      [open.slice(0, Math.floor(open.length / 2)).map((r) => r.id)],
    );
    await pool.query("update fault_events set level = 'SeparateNPU' where id = any($1::text[])", [rows.filter((_, i) => i % 17 === 0).map((r) => r.id)]);
    const singles = rows.filter((r) => r.episode === r.id && r.began > t0 && r.began < t0 + 2 * 24 * hour);
    await pool.query("update fault_events set episode_id = $1 where id = any($2::text[])", [singles[0]!.id, singles.slice(1, 4).map((r) => r.id)]);
    await pool.query("delete from fault_events where id = any($1::text[])", [rows.filter((_, i) => i % 23 === 5).map((r) => r.id)]);
    await expectRollupsMatch();
  });

  it("gives the timeline's density and total from rollups as counted event by event", async () => {
    const from = t0 + 5 * hour + 17 * 60_000;
    const to = from + 12 * 24 * hour;
    for (const filter of [{}, { kind: ["hccl-error", "npu-chip-fault"] }, { level: ["SeparateNPU"] }]) {
      const query = timelineQuerySchema.parse({ cluster: cluster.slug, from, to, ...filter });
      const { density, total } = await listTimeline(pool, cluster, query, now);
      expect(density.bucketMs).toBe(2 * hour);
      const { rows } = await pool.query<{ at: Date; level: string; n: string }>(
        `select date_bin('2 hours', greatest(began_at, $2::timestamptz), timestamptz '2000-01-01 00:00:00+00') as at, level::text, count(*) as n
         from fault_events where cluster_id = $1 and began_at < $3::timestamptz and (began_at >= $2::timestamptz or ended_at is null or ended_at > $2::timestamptz)
           and ($4::text[] is null or kind::text = any($4::text[])) and ($5::text[] is null or level::text = any($5::text[]))
         group by 1, 2`,
        [cluster.id, new Date(from).toISOString(), new Date(to).toISOString(), query.kind ?? null, query.level ?? null],
      );
      const expected = new Map<number, Record<string, number>>();
      for (const r of rows) expected.set(r.at.getTime(), { ...expected.get(r.at.getTime()), [r.level]: Number(r.n) });
      expect(new Map(density.buckets.map((b) => [b.at, b.counts]))).toEqual(expected);
      expect(total).toBe(rows.reduce((sum, r) => sum + Number(r.n), 0));
      expect(total).toBeGreaterThan(100);
    }
  });

  it("recomputes only the stale hours", async () => {
    await refreshFaultRollups(pool, cluster.id);
    expect(await refreshFaultRollups(pool, cluster.id)).toBe(0);
    await pool.query("update fault_events set ended_at = ended_at + interval '1 second' where id = (select id from fault_events where ended_at is not null and episode_id = id order by id limit 1)");
    expect(await refreshFaultRollups(pool, cluster.id)).toBe(1);
  });

  it("shares one refresh among the callers who come while one runs, covering all their periods", async () => {
    await refreshFaultRollups(pool, cluster.id);
    const stale = (hours: number[]) =>
      pool.query("insert into fault_rollup_dirty (cluster_id, hour) select $1, unnest($2::timestamptz[])", [cluster.id, hours.map((h) => new Date(h).toISOString())]);
    const [early, mid, late] = [t0 + 3 * hour, t0 + 30 * hour, t0 + 60 * hour];
    await stale([early, mid, late]);
    // The first caller refreshes the early hour only; the two who come while it runs share the next refresh, which
    // covers both their periods (mid for one, everything for the other), so it also takes the late hour.
    const first = refreshFaultRollups(pool, cluster.id, { from: early, to: early + hour });
    const second = refreshFaultRollups(pool, cluster.id, { from: mid, to: mid + hour });
    const third = refreshFaultRollups(pool, cluster.id);
    expect(third).toBe(second);
    expect(second).not.toBe(first);
    expect(await first).toBe(1);
    expect(await second).toBe(2);
    const { rows } = await pool.query<{ n: string }>("select count(*) as n from fault_rollup_dirty where cluster_id = $1", [cluster.id]);
    expect(Number(rows[0]!.n)).toBe(0);
    // Nothing left running: the next caller refreshes at once.
    await stale([late]);
    expect(await refreshFaultRollups(pool, cluster.id)).toBe(1);
    await expectRollupsMatch();
  });
});

describe("the target filter", () => {
  it("matches a known server or die exactly, links at either end included, and anything else by substring", async () => {
    const { rows: dies } = await pool.query<{ server_id: string; server_ref: number; device_id: number; device_ref: number }>(
      `select s.server_id, s.id as server_ref, d.device_id, d.id as device_ref from servers s join devices d on d.server_ref = s.id
       where s.cluster_id = $1 order by s.position, s.id, d.device_id`,
      [cluster.id],
    );
    const [first, second] = [...new Set(dies.map((d) => d.server_id))];
    const die = (serverId: string | undefined, deviceId: number) => dies.find((d) => d.server_id === serverId && d.device_id === deviceId)!;
    const target = (key: string, end = die(first, 1)): EventTarget => ({ serverRef: end.server_ref, deviceRef: end.device_ref, superPodRef: null, key });
    const began = t0 - 20 * 24 * hour;
    const placed: [string, EventTarget][] = [
      ["die 1", target(`die:${first}/1`)],
      ["die 10", target(`die:${first}/10`, die(first, 10))],
      ["link 0~1", target(`link:${first}/0~${first}/1`)],
      ["link 1 to the next server", target(`link:${first}/1~${second}/1`)],
      ["link 10~11", target(`link:${first}/10~${first}/11`, die(first, 10))],
      ["npu 0", target(`npu:${first}/0`)],
      ["server", target(`server:${first}`)],
      ["other server's die", target(`die:${second}/1`, die(second, 1))],
    ];
    const names = new Map<string, string>();
    await insert(
      placed.map(([name, eventTarget], i) => {
        const id = nextEventId();
        names.set(id, name);
        return { id, began: began + i * 60_000, ended: began + i * 60_000 + 30_000, episode: id, target: eventTarget, kind: "hccl-error", level: "RestartBusiness" };
      }),
    );
    const matched = async (text: string) => {
      const query = timelineQuerySchema.parse({ cluster: cluster.slug, from: began - hour, to: began + hour, target: text });
      const result = await listTimeline(pool, cluster, query, now);
      expect(result.total, text).toBe(result.events.length);
      return result.events.map((e) => names.get(e.id)).sort();
    };
    expect(await matched(`${first}/1`)).toEqual(["die 1", "link 0~1", "link 1 to the next server"]);
    expect(await matched(`${second}/1`)).toEqual(["link 1 to the next server", "other server's die"]);
    expect(await matched(first!)).toEqual(["die 1", "die 10", "link 0~1", "link 1 to the next server", "link 10~11", "npu 0", "server"]);
    expect(await matched("/10")).toEqual(["die 10", "link 10~11"]);
  });
});

describe("the timeline's events", () => {
  it("are read as the rows hold them, whatever their text holds (read packed: db/queries/faults/packed-text.ts)", async () => {
    const began = t0 - 30 * 24 * hour;
    const texts = ["a,b\nc\\d", "", "\\e", "\\c,\\n", "平面 ,\r\t end", null];
    const rows: EventRow[] = texts.map((_, i) => {
      const id = `odd,\\id\n${i}`;
      return { id, episode: i === 0 ? id : "odd,\\id\n0", target: targets[i % targets.length]!, kind: "hccl-error", level: "RestartBusiness", began: began + i * 61_001, ended: i === 3 ? null : began + i * 61_001 + 999, code: texts[(i + 1) % texts.length] ?? null };
    });
    await insert(rows);
    await pool.query(
      `update fault_events f set message = t.text, phase = t.phase, job = t.job, rank = t.rank, rule_at = f.began_at + interval '20 seconds', release_at = case when t.rank is null then null else f.began_at + interval '1 day' end
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[]) as t(id, text, phase, job, rank) where f.id = t.id`,
      [rows.map((r) => r.id), texts, texts.map((_, i) => texts[(i + 2) % texts.length] ?? null), texts.map((_, i) => texts[(i + 3) % texts.length] ?? null), texts.map((_, i) => (i % 2 ? i * 7 : null))],
    );
    const query = timelineQuerySchema.parse({ cluster: cluster.slug, from: began - hour, to: began + hour });
    const { events } = await listTimeline(pool, cluster, query, now);
    const { rows: stored } = await pool.query(
      `select f.id, f.target_kind as "targetKind", f.target_key as "targetKey", f.code, f.phase, f.kind, f.source, f.reported_level as "reportedLevel", f.level, f.rule,
         (extract(epoch from f.rule_at) * 1000)::float8 as "ruleAt", (extract(epoch from f.release_at) * 1000)::float8 as "releaseAt", f.episode_id as "episodeId",
         (extract(epoch from f.began_at) * 1000)::float8 as "beganAt", (extract(epoch from f.ended_at) * 1000)::float8 as "endedAt", f.job, f.rank, f.message,
         d.device_id as "deviceId", f.npu_index as "npuIndex"
       from fault_events f left join devices d on d.id = f.device_ref where f.id = any($1::text[]) order by f.began_at`,
      [rows.map((r) => r.id)],
    );
    expect(stored).toHaveLength(texts.length);
    expect(events.map(({ superPodId: _p, serverId: _s, planeKey: _k, ...rest }) => rest)).toEqual(stored);
    expect(events.map((e) => e.serverId)).toEqual(rows.map((r) => (r.target.serverRef === null ? null : expect.any(String))));
  });
});
