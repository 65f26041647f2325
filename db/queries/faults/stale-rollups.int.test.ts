import type pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { demoA3Cluster } from "@/lib/inventory/demo";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import { testDatabase } from "@/test/database";
import { readOnlyUrl } from "@/test/urls";
import { directStatistics, eventTargets, insertEvents, nextEventId, random, randomEvents, type EventTarget } from "@/test/fault-events";
import { connectDatabase } from "../../client";
import { seedDemo } from "../../seed";
import { timelineQuerySchema } from "../../schema/fault-event/validation";
import { getClusterOrThrow } from "../clusters";
import { refreshFaultRollups, refreshFaultRollupsUnlessBusy, refreshLockClass } from "./rollups";
import { faultStatistics } from "./statistics";
import { listTimeline } from "./timeline";

/*
 * The statistics and the timeline's density read rollups without refreshing them (rollupRead): whichever hours are
 * stale after whatever batches, and whatever part of them a refresh has rebuilt since, the answer is the one computed
 * from fault_events alone.
 */

const hour = 3_600_000;
const day = 24 * hour;
const t0 = Date.parse("2026-10-01T00:00:00Z");
const now = t0 + 6 * day + 41 * 60_000;
let cluster: ClusterHeader;
let pool: pg.Pool;
let targets: EventTarget[] = [];

const periods: [string, number, number][] = [
  ["five whole days", t0, t0 + 5 * day],
  ["the last 24 h on a 15 s step", now - day + 15_000, now + 15_000],
  ["ragged, three days", t0 + day + 7 * hour + 13 * 60_000 + 5, t0 + 4 * day + 2 * hour + 1],
];

async function directDensity(from: number, to: number, bucket: string) {
  const { rows } = await pool.query<{ at: Date; level: string; n: string }>(
    `select date_bin($4::interval, greatest(began_at, $2::timestamptz), timestamptz '2000-01-01 00:00:00+00') as at, level::text, count(*) as n
     from fault_events where cluster_id = $1 and began_at < $3::timestamptz and (began_at >= $2::timestamptz or ended_at is null or ended_at > $2::timestamptz)
     group by 1, 2`,
    [cluster.id, new Date(from).toISOString(), new Date(to).toISOString(), bucket],
  );
  const expected = new Map<number, Record<string, number>>();
  for (const r of rows) expected.set(r.at.getTime(), { ...expected.get(r.at.getTime()), [r.level]: Number(r.n) });
  return expected;
}

async function expectExact(round: number): Promise<void> {
  for (const [label, from, to] of periods) {
    const { mttrMs, ...rest } = await faultStatistics(pool, cluster, from, to, now);
    const { mttrMs: directMttr, ...direct } = await directStatistics(pool, cluster, from, to, now);
    expect(rest, `${label}, round ${round}`).toEqual(direct);
    if (directMttr === null) expect(mttrMs).toBeNull();
    else expect(mttrMs, `${label}, round ${round}`).toBeCloseTo(directMttr, 3);
  }
  // Twelve days: two-hour buckets, from the hourly rollups where they are fresh.
  const [from, to] = [t0 + 3 * hour + 5 * 60_000, t0 + 12 * day];
  const { density } = await listTimeline(pool, cluster, timelineQuerySchema.parse({ cluster: cluster.slug, from, to }), now);
  expect(density.bucketMs).toBe(2 * hour);
  expect(new Map(density.buckets.map((b) => [b.at, b.counts])), `density, round ${round}`).toEqual(await directDensity(from, to, "2 hours"));
}

const staleHours = async () =>
  Number((await pool.query<{ n: string }>("select count(distinct hour) as n from fault_rollup_dirty where cluster_id = $1", [cluster.id])).rows[0]!.n);

beforeAll(async () => {
  ({ pool } = testDatabase());
  await seedDemo(testDatabase().db, [demoA3Cluster(2, 3)]);
  cluster = await getClusterOrThrow(testDatabase().db, "atlas-a3-demo");
  targets = await eventTargets(pool, cluster.id);
});

describe("rollups read while stale", () => {
  it("give the answers of a full computation after random batches, refreshed wholly, partly or not at all", async () => {
    const next = random(20);
    await insertEvents(pool, cluster.id, randomEvents(next, targets, 1200, [t0 - day, now - hour]));
    await refreshFaultRollups(pool, cluster.id);
    const seen = { stale: 0, clean: 0 };
    for (let round = 0; round < 8; round++) {
      // A batch: new events (late ones into old hours too), a flap that makes a fault of one event a longer one,
      // open events ending, levels judged again, some events deleted.
      await insertEvents(pool, cluster.id, randomEvents(next, targets, 40 + Math.floor(next() * 80), [t0 + Math.floor(next() * 4) * day, now]));
      const { rows: singles } = await pool.query<{ id: string; target_key: string; began: Date; ended: Date }>(
        "select id, target_key, began_at as began, ended_at as ended from fault_events where cluster_id = $1 and episode_id = id and ended_at is not null order by md5(id || $2) limit 1",
        [cluster.id, String(round)],
      );
      const single = singles[0]!;
      const target = targets.find((t) => t.key === single.target_key) ?? targets[0]!;
      await insertEvents(pool, cluster.id, [
        { id: nextEventId(), episode: single.id, target, kind: "hccl-error", level: "SeparateNPU", began: single.ended.getTime() + 50 * 60_000, ended: single.ended.getTime() + 90 * 60_000 },
      ]);
      await pool.query(
        `update fault_events set ended_at = began_at + interval '1 minute' * (1 + abs(hashtext(id)) % 600)
         where id in (select id from fault_events where cluster_id = $1 and ended_at is null order by md5(id || $2) limit 5)`,
        [cluster.id, String(round)],
      );
      await pool.query("update fault_events set level = 'RestartBusiness' where id in (select id from fault_events where cluster_id = $1 order by md5(id || $2) limit 7)", [
        cluster.id,
        `level ${round}`,
      ]);
      await pool.query("delete from fault_events where id in (select id from fault_events where cluster_id = $1 and episode_id <> id order by md5(id || $2) limit 3)", [
        cluster.id,
        `delete ${round}`,
      ]);
      // Then a refresh of nothing, of some hours, or of everything.
      const choice = round % 3;
      if (choice === 1) {
        const from = t0 + Math.floor(next() * 5 * 24) * hour;
        await refreshFaultRollups(pool, cluster.id, { from, to: from + Math.floor(1 + next() * 30) * hour });
      }
      if (choice === 2) await refreshFaultRollups(pool, cluster.id);
      if ((await staleHours()) > 0) seen.stale++;
      else seen.clean++;
      await expectExact(round);
    }
    // Both ways of reading were exercised: with hours stale and with none.
    expect(seen.stale).toBeGreaterThan(0);
    expect(seen.clean).toBeGreaterThan(0);
  });

  it("reads without writing: on read-only connections, with stale hours", async () => {
    await insertEvents(pool, cluster.id, randomEvents(random(21), targets, 50, [t0, now]));
    expect(await staleHours()).toBeGreaterThan(0);
    // A pool, not one client in a read-only transaction: the statistics read runs its queries at once.
    const readOnly = connectDatabase(readOnlyUrl(testDatabase().url), { max: 5 });
    try {
      const [from, to] = periods[0]!.slice(1) as [number, number];
      const { mttrMs, ...rest } = await faultStatistics(readOnly.pool, cluster, from, to, now);
      const { mttrMs: directMttr, ...direct } = await directStatistics(pool, cluster, from, to, now);
      expect(rest).toEqual(direct);
      expect(mttrMs).toBeCloseTo(directMttr!, 3);
    } finally {
      await readOnly.pool.end();
    }
  });

  it("refreshes in the background unless another refresh of the cluster holds the lock", async () => {
    await insertEvents(pool, cluster.id, randomEvents(random(22), targets, 30, [t0, now]));
    const stale = await staleHours();
    expect(stale).toBeGreaterThan(0);
    const other = await pool.connect();
    try {
      await other.query("begin");
      await other.query("select pg_advisory_xact_lock($1, $2)", [refreshLockClass, cluster.id]);
      expect(await refreshFaultRollupsUnlessBusy(pool, cluster.id)).toBeNull();
      expect(await staleHours()).toBe(stale);
      await other.query("commit");
    } finally {
      other.release();
    }
    expect(await refreshFaultRollupsUnlessBusy(pool, cluster.id)).toBe(stale);
    expect(await staleHours()).toBe(0);
  });
});
