import type pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { testDatabase } from "@/test/database";
import { directStatistics, eventTargets, insertEvents, random, randomEvents, type EventRow } from "@/test/fault-events";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import { seedDemo } from "../../seed";
import { systemActor } from "../audit";
import { getClusterOrThrow } from "../clusters";
import { faultSettingsInputSchema } from "@/db/schema/fault-event/validation";
import { defaultEscalationSettings } from "@/lib/faults/escalation";
import { applyRetention, getRetention, runRetention } from "./retention";
import { putFaultSettings } from "./settings";
import { faultStatistics } from "./statistics";

const hour = 3_600_000;
const day = 24 * hour;
const now = Date.parse("2026-11-20T12:34:56Z");
let pool: pg.Pool;
let cluster: ClusterHeader;
let rows: EventRow[] = [];

const ids = async (table: string) =>
  (await pool.query<{ id: string }>(`select id from ${table} where cluster_id = $1 order by id`, [cluster.id])).rows.map((r) => r.id);

/** Statistics over everything left must still be those computed event by event. */
async function expectConsistentStatistics(): Promise<void> {
  for (const [from, to] of [
    [now - 30 * day, now],
    [now - 12 * day + 7 * 60_000, now - 8 * day - 11 * 60_000],
  ] as const) {
    const { mttrMs, ...rolled } = await faultStatistics(pool, cluster, from, to, now);
    const { mttrMs: directMttr, ...direct } = await directStatistics(pool, cluster, from, to, now);
    expect(rolled).toEqual(direct);
    expect(mttrMs ?? 0).toBeCloseTo(directMttr ?? 0, 3);
  }
}

/** Batches of `size` per hour the events began in: what a batched run must take. */
function expectedBatches(events: EventRow[], size: number): number {
  const perHour = new Map<number, number>();
  for (const e of events) perHour.set(Math.floor(e.began / hour), (perHour.get(Math.floor(e.began / hour)) ?? 0) + 1);
  return [...perHour.values()].reduce((sum, n) => sum + Math.ceil(n / size), 0);
}

beforeAll(async () => {
  ({ pool } = testDatabase());
  await seedDemo(testDatabase().db, [demoA3Cluster(2, 2)]);
  cluster = await getClusterOrThrow(testDatabase().db, "atlas-a3-demo");
  rows = randomEvents(random(11), await eventTargets(pool, cluster.id), 800, [now - 25 * day, now - hour]);
  await insertEvents(pool, cluster.id, rows);
  // Read once, so the rollups of every hour exist before retention changes them.
  await faultStatistics(pool, cluster, now - 30 * day, now, now);
});

describe("retention", () => {
  it("stores days and mode per cluster with the fault settings, validated, with the defaults until set", async () => {
    expect(await getRetention(pool, cluster.id)).toEqual({ days: 400, mode: "delete" });
    expect(faultSettingsInputSchema.safeParse({ escalation: defaultEscalationSettings, retentionDays: 0 }).success).toBe(false);
    expect(faultSettingsInputSchema.safeParse({ escalation: defaultEscalationSettings, retentionDays: 30, retentionMode: "export" }).success).toBe(false);
    // Clients that predate the archive mode send no mode and get `delete`.
    expect(faultSettingsInputSchema.parse({ escalation: defaultEscalationSettings, retentionDays: 30 }).retentionMode).toBe("delete");
    const input = faultSettingsInputSchema.parse({ escalation: defaultEscalationSettings, retentionDays: 20, retentionMode: "archive" });
    const saved = await putFaultSettings(testDatabase(), cluster, input, null, systemActor);
    expect(saved).toMatchObject({ retentionDays: 20, retentionMode: "archive", customised: true });
    expect(await getRetention(pool, cluster.id)).toEqual({ days: 20, mode: "archive" });
  });

  it("archives exactly the events that ended before the cutoff, in batches, keeping every column", async () => {
    const cutoff = now - 20 * day;
    const old = rows.filter((r) => r.ended !== null && r.ended < cutoff);
    const kept = rows.filter((r) => !old.includes(r));
    expect(old.length).toBeGreaterThan(50);
    expect(kept.some((r) => r.began < cutoff)).toBe(true);
    const before = await pool.query<{ row: Record<string, unknown> }>("select to_jsonb(f) as row from fault_events f where id = $1", [old[0]!.id]);

    const result = await applyRetention(pool, cluster.id, { days: 20, mode: "archive" }, { now, batchSize: 7 });
    expect(result).toEqual({ cutoff, mode: "archive", events: old.length, batches: expectedBatches(old, 7) });
    expect(await ids("fault_event_archive")).toEqual(old.map((r) => r.id).sort());
    expect(await ids("fault_events")).toEqual(kept.map((r) => r.id).sort());
    const archived = await pool.query<{ row: Record<string, unknown> }>("select to_jsonb(a) - 'archived_at' as row from fault_event_archive a where id = $1", [old[0]!.id]);
    expect(archived.rows[0]!.row).toEqual(before.rows[0]!.row);
    await expectConsistentStatistics();

    // Nothing more to do on a second run.
    expect((await applyRetention(pool, cluster.id, { days: 20, mode: "archive" }, { now, batchSize: 7 })).events).toBe(0);
  });

  it("stores an event archived twice once: taken in again after archiving, it leaves fault_events and the archive keeps one copy", async () => {
    const cutoff = now - 20 * day;
    const again = rows.filter((r) => r.ended !== null && r.ended < cutoff).slice(0, 9);
    const archivedAt = async () =>
      (await pool.query<{ id: string; at: Date }>("select id, archived_at as at from fault_event_archive where id = any($1) order by id", [again.map((r) => r.id)])).rows;
    const first = await archivedAt();
    expect(first).toHaveLength(again.length);
    await insertEvents(pool, cluster.id, again);
    // A batch of 4 where every row is already archived must not end the run early (the count is of rows moved).
    const result = await applyRetention(pool, cluster.id, { days: 20, mode: "archive" }, { now, batchSize: 4 });
    expect(result.events).toBe(again.length);
    expect((await ids("fault_events")).some((id) => again.some((r) => r.id === id))).toBe(false);
    expect(await archivedAt()).toEqual(first);
    const { rows: key } = await pool.query("select 1 from pg_constraint where conname = 'fault_event_archive_pk' and contype = 'p'");
    expect(key).toHaveLength(1);
  });

  it("deletes exactly the events that ended before the cutoff and keeps open ones", async () => {
    const cutoff = now - 10 * day;
    const remaining = new Set(await ids("fault_events"));
    const old = rows.filter((r) => remaining.has(r.id) && r.ended !== null && r.ended < cutoff);
    expect(old.length).toBeGreaterThan(50);
    const openOld = rows.filter((r) => r.ended === null && r.began < cutoff);
    expect(openOld.length).toBeGreaterThan(0);

    const result = await applyRetention(pool, cluster.id, { days: 10, mode: "delete" }, { now, batchSize: 5 });
    expect(result).toMatchObject({ events: old.length, batches: expectedBatches(old, 5) });
    const left = await ids("fault_events");
    expect(left).toEqual(rows.filter((r) => remaining.has(r.id) && !old.includes(r)).map((r) => r.id).sort());
    expect(left).toEqual(expect.arrayContaining(openOld.map((r) => r.id)));
    expect((await ids("fault_event_archive")).some((id) => old.some((r) => r.id === id))).toBe(false);
    await expectConsistentStatistics();
  });

  it("runs once per database: a second runner finds the lock taken and does nothing", async () => {
    const holder = await pool.connect();
    try {
      await holder.query("select pg_advisory_lock(7302114520)");
      expect(await runRetention(pool, { now })).toBeNull();
    } finally {
      await holder.query("select pg_advisory_unlock(7302114520)");
      holder.release();
    }
    const results = await runRetention(pool, { now: now + 2 * day });
    // The stored setting (20 days, archive) applies, two days later.
    expect(results?.get("atlas-a3-demo")).toMatchObject({ mode: "archive", cutoff: now + 2 * day - 20 * day });
  });
});
