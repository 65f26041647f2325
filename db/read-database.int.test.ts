import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { testDatabase } from "@/test/database";
import { eventTargets, insertEvents, nextEventId, type EventTarget } from "@/test/fault-events";
import { readOnlyUrl } from "@/test/urls";
import { connectDatabase, type DatabaseHandle } from "./client";
import { freePort } from "./embedded";
import { getClusterOrThrow } from "./queries/clusters";
import { faultStatistics, refreshFaultRollups, reportSeries } from "./queries/faults";
import { ReadRouter, type ReplicaStatus } from "./read-database";
import { seedDemo } from "./seed";

/*
 * The routing of reads to a replica (db/read-database.ts), against a real PostgreSQL. A hot standby is stood in for
 * by a read-only connection to the test database (default_transaction_read_only: writes fail with 25006, as on a
 * standby) with its replay position told by the test; `npm run test:cluster` runs the real streaming replica.
 */

const hour = 3_600_000;
let readOnly: DatabaseHandle;
let lines: string[];
const primary = () => testDatabase() as DatabaseHandle;
const log = (line: string) => lines.push(line);

/** The primary's WAL position, and a status that says the replica has replayed up to `replay`. */
async function currentLsn(): Promise<string> {
  return (await testDatabase().pool.query<{ lsn: string }>("select pg_current_wal_lsn()::text as lsn")).rows[0]!.lsn;
}
const standby = (replay: string, primaryLsn = replay, lagMs = 0): ReplicaStatus => ({
  state: "standby",
  at: Date.now(),
  replayLsn: replay,
  primaryLsn,
  replayedAt: new Date(Date.now() - lagMs),
  lagMs,
});

beforeAll(async () => {
  await seedDemo(testDatabase().db, [demoA3Cluster(1, 2)]);
  readOnly = connectDatabase(readOnlyUrl(testDatabase().url), { max: 2 });
});
afterAll(async () => {
  await readOnly.pool.end();
});

describe("the read router", () => {
  it("reads from the replica when it has replayed the caller's write, from the primary before", async () => {
    lines = [];
    const written = await currentLsn();
    let replay = "0/1";
    let probes = 0;
    const router = new ReadRouter(primary, readOnly, { log, probe: async () => (probes++, standby(replay)) });
    const where = async () => (await router.run(written, async ({ pool }) => (await pool.query<{ ro: string }>("select current_setting('transaction_read_only') as ro")).rows[0]!.ro)).value;

    expect(await where()).toBe("off");
    expect((await router.decide(written)).reason).toBe("behind-caller");
    // Behind the caller's write: the cached position is asked about again once before the primary is used.
    expect(probes).toBeGreaterThanOrEqual(2);

    replay = written;
    expect(await where()).toBe("on");
    expect((await router.decide(null)).source).toBe("replica");
    expect(lines).toEqual([]);
  });

  it("says how old the replica's data is only when it is behind by a second or more", async () => {
    const lsn = await currentLsn();
    const [high, low] = lsn.split("/") as [string, string];
    const ahead = `${high}/${(parseInt(low, 16) + 4096).toString(16).toUpperCase()}`;
    let status = standby(lsn, ahead, 5_000);
    const router = new ReadRouter(primary, readOnly, { statusTtlMs: 0, probe: async () => status });
    const behind = await router.decide(null);
    expect(behind.source).toBe("replica");
    expect(behind.asOf?.getTime()).toBeLessThanOrEqual(Date.now() - 5_000);

    status = standby(lsn, ahead, 200);
    expect((await router.decide(null)).asOf).toBeNull();
    // Caught up: however long since its last replayed commit (an idle primary), the data is current.
    status = standby(lsn, lsn, 60_000);
    expect((await router.decide(null)).asOf).toBeNull();
  });

  it("answers statistics on the replica while rollups are stale, and runs a read that needs them rebuilt on the primary", async () => {
    const cluster = await getClusterOrThrow(testDatabase().db, "atlas-a3-demo");
    const targets: EventTarget[] = await eventTargets(testDatabase().pool, cluster.id);
    const t0 = Date.now() - 30 * hour;
    await insertEvents(
      testDatabase().pool,
      cluster.id,
      Array.from({ length: 20 }, (_, i) => {
        const id = nextEventId();
        return { id, episode: id, target: targets[i % targets.length]!, kind: "hccl-error", level: "SeparateNPU" as const, began: t0 + i * 60_000, ended: t0 + i * 60_000 + 30_000 };
      }),
    );
    const router = new ReadRouter(primary, readOnly, { statusTtlMs: 0, probe: async () => standby(await currentLsn()) });
    const stats = (handle: DatabaseHandle) => faultStatistics(handle.pool, cluster, t0 - hour, t0 + 2 * hour);
    // The report's series read the carries, which need every stale hour before them rebuilt: a write.
    const series = (handle: DatabaseHandle) => reportSeries(handle.pool, cluster.id, t0 - hour, t0 + 2 * hour, Date.now(), hour);

    // The statistics read the stale hours from fault_events: no write, so the replica answers.
    const stale = await router.run(null, stats);
    expect(stale.read).toMatchObject({ source: "replica", reason: "replica" });
    expect(stale.value.byKind.reduce((n, k) => n + k.count, 0)).toBe(20);

    const first = await router.run(null, series);
    expect(first.read).toMatchObject({ source: "primary", reason: "replica-refused" });
    const second = await router.run(null, series);
    expect(second.read).toMatchObject({ source: "replica", reason: "replica" });
    expect(second.value).toEqual(first.value);
    expect(await refreshFaultRollups(testDatabase().pool, cluster.id)).toBe(0);

    const fresh = await router.run(null, stats);
    expect(fresh.read.source).toBe("replica");
    expect(fresh.value).toEqual(stale.value);
  });

  it("runs a read that writes on the primary when the replica refuses the write", async () => {
    const router = new ReadRouter(primary, readOnly, { probe: async () => standby(await currentLsn()) });
    const { value, read } = await router.run(null, async ({ pool }) => (await pool.query<{ n: number }>("update clusters set name = name returning 1 as n")).rowCount);
    expect(value).toBeGreaterThan(0);
    expect(read).toMatchObject({ source: "primary", reason: "replica-refused" });
  });

  it("falls back to the primary, saying so once, when the replica is unreachable", async () => {
    lines = [];
    const unreachable = connectDatabase(`postgres://postgres@127.0.0.1:${await freePort()}/none`, { max: 1 });
    try {
      const router = new ReadRouter(primary, unreachable, { log, statusTtlMs: 0, downRetryMs: 60_000 });
      for (let i = 0; i < 3; i++) {
        const { value, read } = await router.run(null, async ({ pool }) => (await pool.query<{ one: number }>("select 1 as one")).rows[0]!.one);
        expect(value).toBe(1);
        expect(read.reason).toBe("replica-down");
      }
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/unreachable/);
    } finally {
      await unreachable.pool.end();
    }
  });

  it("does not read from a server that is not a standby", async () => {
    lines = [];
    const router = new ReadRouter(primary, readOnly, { log, statusTtlMs: 0 });
    expect((await router.decide(null)).reason).toBe("not-standby");
    expect((await router.decide(null)).reason).toBe("not-standby");
    expect(lines).toEqual(["DATABASE_READ_URL is not a standby (pg_is_in_recovery() is false): reads go to the primary"]);
  });

  it("with no replica configured, reads the primary", async () => {
    const router = new ReadRouter(primary, undefined);
    expect(router.configured).toBe(false);
    expect((await router.run(null, async () => "x")).read).toEqual({ source: "primary", reason: "no-replica", asOf: null });
  });
});
