import { gunzipSync, gzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, type DatabaseHandle } from "@/db/client";
import { systemActor } from "@/db/queries/audit";
import { faultChannel } from "@/db/schema/fault-event/constants";
import { seedDemo } from "@/db/seed";
import { covers, HeardChanges } from "@/lib/heard-changes";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { parseSnapshot, parseXid, xidVisible, type XactSnapshot } from "@/lib/xact-snapshot";
import { testDatabase } from "@/test/database";
import { postedEvents } from "@/test/fault-events";
import { currentSnapshot, ingestFaultEvents, obtainFaultAnswer, type StoredFaultAnswer } from ".";

/*
 * Two instances on one PostgreSQL, as two pools each with what it heard on a LISTEN connection of its own: an answer
 * one computed is served by the other while it covers what that one heard, and never once it does not.
 */

interface Instance {
  handle: DatabaseHandle;
  listener: pg.Client;
  heard: HeardChanges;
  /** How many notices it has heard. */
  notices: number;
}

const cluster = "atlas-a3-demo";
const { linkDown } = postedEvents(Date.now() - 3_600_000);
let a: Instance;
let b: Instance;
let clusterId = 0;

async function instance(): Promise<Instance> {
  const handle = connectDatabase(testDatabase().url, { max: 4 });
  const listener = new pg.Client({ connectionString: testDatabase().url });
  await listener.connect();
  const self: Instance = { handle, listener, heard: new HeardChanges(), notices: 0 };
  listener.on("notification", (message) => {
    const notice = JSON.parse(message.payload!) as { slug: string; clusterId: number; xid?: string };
    self.heard.heard([notice.slug, String(notice.clusterId)], parseXid(notice.xid)!);
    self.notices++;
  });
  await listener.query(`listen ${faultChannel}`);
  self.heard.barrier("listen", await currentSnapshot(listener as unknown as pg.Pool));
  return self;
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(check()).toBe(true);
}

beforeAll(async () => {
  await seedDemo(testDatabase().db, [demoA3Cluster(2, 4)]);
  clusterId = (await testDatabase().pool.query<{ id: number }>("select id from clusters where slug = $1", [cluster])).rows[0]!.id;
  [a, b] = [await instance(), await instance()];
});

afterAll(async () => {
  for (const i of [a, b]) {
    await i.listener.end();
    await i.handle.pool.end();
  }
});

/** A batch written through a third pool (a third instance, or a device plugin's): heard by both once its NOTIFY arrives. */
async function write(...events: unknown[]): Promise<void> {
  const before = [a.notices, b.notices];
  const writer = connectDatabase(testDatabase().url, { max: 2 });
  try {
    expect((await ingestFaultEvents(writer, events, { atomic: "all", actor: systemActor })).counts.created).toBe(events.length);
  } finally {
    await writer.pool.end();
  }
  await until(() => a.notices > before[0]! && b.notices > before[1]!);
}

/** The answer's data: the cluster's events counted, read after the snapshot is taken, as the server computes one. */
function counting(self: Instance, computations: { n: number }, pause?: Promise<unknown>) {
  return async (reading: (snapshot: XactSnapshot) => void): Promise<StoredFaultAnswer> => {
    computations.n++;
    const snapshot = await currentSnapshot(self.handle.pool);
    reading(snapshot);
    await pause;
    const { rows } = await self.handle.pool.query<{ n: number }>("select count(*)::int as n from fault_events where cluster_id = $1", [clusterId]);
    const json = Buffer.from(JSON.stringify({ events: rows[0]!.n }));
    return { snapshot, headers: {}, jsonBytes: json.length, gzip: gzipSync(json) };
  };
}

/** What `self` gets for `key`, taking a stored answer only while it covers what `self` heard when it asked. */
async function ask(self: Instance, key: string, computations: { n: number }, options: { waitMs?: number; pause?: Promise<unknown> } = {}) {
  const requirement = self.heard.requirement(cluster);
  const obtained = await obtainFaultAnswer(self.handle.pool, key, (snapshot, ageMs) => ageMs < 5_000 && covers(snapshot, requirement), counting(self, computations, options.pause), {
    waitMs: options.waitMs ?? 5_000,
  });
  return { ...obtained, events: (JSON.parse(gunzipSync(obtained.answer.gzip).toString()) as { events: number }).events };
}

/** Until the computation of `key` under way has said which snapshot it reads from (as it does just after taking it). */
async function underWay(key: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { rows } = await testDatabase().pool.query("select 1 from shared_fault_computing where key = $1", [key]);
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no computation of ${key} under way`);
}

const eventCount = async () => (await testDatabase().pool.query<{ n: number }>("select count(*)::int as n from fault_events where cluster_id = $1", [clusterId])).rows[0]!.n;

describe("fault answers shared between instances", () => {
  it("judge a transaction visible in a snapshot as PostgreSQL does", async () => {
    const running = await testDatabase().pool.connect();
    try {
      await running.query("begin");
      const { rows: started } = await running.query<{ xid: string }>("select pg_current_xact_id()::text as xid");
      const { rows: done } = await testDatabase().pool.query<{ xid: string }>("select pg_current_xact_id()::text as xid");
      const { rows } = await testDatabase().pool.query<{ snapshot: string }>("select pg_current_snapshot()::text as snapshot");
      const { rows: later } = await testDatabase().pool.query<{ xid: string }>("select pg_current_xact_id()::text as xid");
      const snapshot = parseSnapshot(rows[0]!.snapshot);
      const xids = [started[0]!.xid, done[0]!.xid, later[0]!.xid, "3"].map((x) => parseXid(x)!);
      const { rows: theirs } = await testDatabase().pool.query<{ visible: boolean }>(
        "select pg_visible_in_snapshot(x::xid8, $1::pg_snapshot) as visible from unnest($2::text[]) with ordinality as t(x, n) order by n",
        [rows[0]!.snapshot, xids.map(String)],
      );
      expect(xids.map((xid) => xidVisible(snapshot, xid))).toEqual(theirs.map((r) => r.visible));
      expect(theirs.map((r) => r.visible)).toEqual([false, true, false, true]);
    } finally {
      await running.query("rollback");
      running.release();
    }
  });

  it("are served by the second instance without computing while they cover what it heard", async () => {
    const computations = { n: 0 };
    const first = await ask(a, "count", computations);
    const second = await ask(b, "count", computations);
    expect([first.computed, second.computed, computations.n]).toEqual([true, false, 1]);
    expect(second.answer.gzip.equals(first.answer.gzip)).toBe(true);
    expect(second.events).toBe(await eventCount());
  });

  it("are computed again by an instance that heard a write the stored answer does not see", async () => {
    const computations = { n: 0 };
    const before = await ask(a, "after-write", computations);
    await write(linkDown("sp0-node01", 0, 0, null));
    const after = await ask(b, "after-write", computations);
    expect([before.computed, after.computed]).toEqual([true, true]);
    expect(after.events).toBe(before.events + 1);
    // The new answer covers what A heard too: A takes it.
    expect((await ask(a, "after-write", computations)).computed).toBe(false);
    expect(computations.n).toBe(2);
  });

  it("are never served stale: an answer stored after a write but computed from a snapshot before it is refused", async () => {
    const computations = { n: 0 };
    let resume = () => {};
    const pause = new Promise<void>((resolve) => (resume = resolve));
    // A takes its snapshot, then a write commits and both hear it, then A reads (its statement sees the write, its
    // snapshot does not: the answer is dated by the older of the two) and stores.
    const slow = ask(a, "stale", computations, { pause });
    await until(() => computations.n === 1);
    await write(linkDown("sp0-node01", 1, 10, null));
    resume();
    expect((await slow).computed).toBe(true);
    const fromB = await ask(b, "stale", computations);
    expect(fromB.computed).toBe(true);
    expect(fromB.events).toBe(await eventCount());
    expect(computations.n).toBe(2);
  });

  it("are computed once across instances asking at the same time: the second waits and takes the first's", async () => {
    const computations = { n: 0 };
    let resume = () => {};
    const pause = new Promise<void>((resolve) => (resume = resolve));
    const first = ask(a, "together", computations, { pause });
    await underWay("together");
    const second = ask(b, "together", computations);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(computations.n).toBe(1); // B waits on the lock
    resume();
    const [x, y] = await Promise.all([first, second]);
    expect([x.computed, y.computed, computations.n]).toEqual([true, false, 1]);
  });

  it("are computed at once, in parallel, by an instance that heard a change the computation under way will miss", async () => {
    const computations = { n: 0 };
    let resume = () => {};
    const pause = new Promise<void>((resolve) => (resume = resolve));
    const first = ask(a, "missing", computations, { pause });
    await underWay("missing");
    await write(linkDown("sp0-node02", 0, 50, null));
    const started = Date.now();
    const second = await ask(b, "missing", computations);
    expect(second.computed).toBe(true);
    expect(second.events).toBe(await eventCount());
    expect(Date.now() - started).toBeLessThan(3_000); // not after A's (still paused)
    resume();
    expect((await first).computed).toBe(true);
  });

  it("are computed by a waiting instance when the holder is too slow or dies, never waited for forever", async () => {
    const computations = { n: 0 };
    let resume = () => {};
    const stuck = ask(a, "holder", computations, { pause: new Promise<void>((resolve) => (resume = resolve)) });
    await underWay("holder");
    const started = Date.now();
    const impatient = await ask(b, "holder", computations, { waitMs: 300 });
    expect(impatient.computed).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
    // The holder's session ends (its instance killed): its lock goes with it and the next one computes at once.
    const { rows } = await testDatabase().pool.query<{ pid: number }>(
      "select pid from pg_locks where locktype = 'advisory' and classid = 730212 and granted",
    );
    expect(rows).toHaveLength(1);
    await testDatabase().pool.query("select pg_terminate_backend($1)", [rows[0]!.pid]);
    await write(linkDown("sp0-node01", 2, 20, null));
    const next = await ask(b, "holder", computations, { waitMs: 60_000 });
    expect(next.computed).toBe(true);
    expect(next.events).toBe(await eventCount());
    resume();
    await stuck.catch(() => {});
  });

  it("keep one row per key and drop the rows nobody takes any more", async () => {
    const { pool } = testDatabase();
    await pool.query("update shared_fault_answers set computed_at = computed_at - interval '2 minutes' where key = 'count'");
    await ask(a, "after-write", { n: 0 });
    await write(linkDown("sp0-node01", 3, 30, null));
    await ask(a, "after-write", { n: 0 });
    const { rows } = await pool.query<{ key: string }>("select key from shared_fault_answers order by key");
    expect(rows.map((r) => r.key)).not.toContain("count");
    expect(rows.filter((r) => r.key === "after-write")).toHaveLength(1);
  });
});
