import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { testDatabase } from "@/test/database";
import { systemActor } from "../audit";
import { seedDemo } from "../../seed";
import { loadSeries, noneFinishedSince } from "./history";
import { ingestFaultEvents } from "./ingest";
import { rejudgeSeries } from "./judgement";
import { defaultEscalationSettings } from "@/lib/faults/escalation";
import { random } from "@/test/fault-events";

// Ingestion skips re-reading a batch's series under the locks when no other transaction finished since it read
// them; a wrong "none" would lose another batch's events from the judgement.
describe("noneFinishedSince", () => {
  let reader: pg.PoolClient;
  let other: pg.PoolClient;
  beforeAll(async () => {
    const { pool } = testDatabase();
    await pool.query("create table snapshot_probe (n int)");
    reader = await pool.connect();
    other = await pool.connect();
  });
  afterAll(() => {
    reader.release();
    other.release();
  });

  /** Runs `between` after the reader took its snapshot, then asks the reader whether nothing finished since. */
  async function quietAfter(between: () => Promise<void>, readerWrites = false): Promise<boolean> {
    await reader.query("begin");
    try {
      const { rows } = await reader.query<{ snapshot: string }>("select pg_current_snapshot()::text as snapshot");
      if (readerWrites) await reader.query("insert into snapshot_probe values (0)");
      await between();
      const { rows: answer } = await reader.query<{ quiet: boolean }>(`select ${noneFinishedSince("$1")} as quiet`, [rows[0]!.snapshot]);
      return answer[0]!.quiet;
    } finally {
      await reader.query("rollback");
    }
  }

  /**
   * quietAfter, asked again until it is true (at most 50 times). Transaction ids are the server's, shared by all its
   * databases: a write anywhere on it between the two snapshots (another test file, the e2e database seeded beside
   * Vitest) rightly makes the answer false, which ingestion takes as "read again". A function that never says true
   * still fails.
   */
  async function quietEventually(between: () => Promise<void>, readerWrites = false): Promise<boolean> {
    for (let attempt = 0; attempt < 50; attempt++) if (await quietAfter(between, readerWrites)) return true;
    return false;
  }

  it("is true when nothing else happened, and despite the transaction's own writes", async () => {
    expect(await quietEventually(async () => {})).toBe(true);
    expect(await quietEventually(async () => {}, true)).toBe(true);
  });

  it("is false when another transaction committed or rolled back a write since", async () => {
    expect(await quietAfter(() => other.query("insert into snapshot_probe values (1)").then(() => {}))).toBe(false);
    const rolledBack = async () => {
      await other.query("begin");
      await other.query("insert into snapshot_probe values (2)");
      await other.query("rollback");
    };
    expect(await quietAfter(rolledBack)).toBe(false);
  });

  it("is false when a transaction in progress at the snapshot committed since, and true while it still runs", async () => {
    await other.query("begin");
    await other.query("insert into snapshot_probe values (3)");
    try {
      expect(await quietEventually(async () => {})).toBe(true);
      expect(await quietAfter(() => other.query("commit").then(() => {}))).toBe(false);
    } finally {
      await other.query("rollback").catch(() => {});
    }
  });

  it("is true after read-only transactions (they write nothing)", async () => {
    expect(await quietEventually(() => other.query("select count(*) from snapshot_probe").then(() => {}))).toBe(true);
  });
});

// loadSeries reads a series' history as one text with separators (history.ts `packedRows`): what a feeder names its
// events and codes (anything but NUL) must come back exactly, as a plain read of the rows gives it.
describe("loadSeries", () => {
  it("reads ids, episodes and codes holding the separators and escapes exactly, and times to the millisecond", async () => {
    const { db, pool } = testDatabase();
    await seedDemo(db, [demoA3Cluster(2, 3)]);
    const t0 = Date.now() - 3_600_000;
    const odd = ["a,b", "line\nfeed", "back\\slash\\c", "\\e", "\\", ",", "plain", "trailing\\"];
    const event = (id: string, n: number, code: string | undefined) => ({
      id,
      cluster: "atlas-a3-demo",
      kind: "roce-link-down",
      source: "simulator",
      ...(code === undefined ? {} : { code }),
      target: { server: "sp0-node00", die: n % 2 },
      beganAt: new Date(t0 + n * 10_000 + 0.5).toISOString(),
      ...(n % 3 === 0 ? {} : { endedAt: new Date(t0 + n * 10_000 + 1_234).toISOString() }),
    });
    // Link downs 10 s apart on two dies (flaps: one episode each, whose id is the first event's), and HCCL-like
    // events whose codes hold the separators.
    const items = [...odd.map((id, n) => event(id, n, "81078603")), ...odd.map((id, n) => ({ ...event(`code-${n}`, n, id), kind: "hccl-error" }))];
    const result = await ingestFaultEvents(testDatabase(), items, { atomic: "all", actor: systemActor });
    expect(result.counts).toMatchObject({ created: items.length, invalid: 0 });
    const { rows } = await pool.query<{ series_key: string }>("select distinct series_key from fault_events where source = 'simulator' order by 1");
    const keys = [...rows.map((r) => r.series_key), "no such series"];
    const history = await loadSeries(pool, 1, keys, t0 - 86_400_000);
    // The same rows as a plain read gives them.
    type Row = { id: string; series_key: string; kind: string; code: string | null; reported_level: string; began_at: Date; ended_at: Date | null; level: string; rule: string; rule_at: Date | null; release_at: Date | null; episode_id: string };
    const { rows: plain } = await pool.query<Row>("select * from fault_events where source = 'simulator'");
    const time = (d: Date | null) => (d === null ? null : d.getTime());
    const expected = plain.map((r) => ({
      id: r.id,
      seriesKey: r.series_key,
      kind: r.kind,
      code: r.code,
      reportedLevel: r.reported_level,
      beganAt: time(r.began_at),
      endedAt: time(r.ended_at),
      level: r.level,
      rule: r.rule,
      ruleAt: time(r.rule_at),
      releaseAt: time(r.release_at),
      episodeId: r.episode_id,
    }));
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    const read = [...history.bySeries.values()].flat().sort(byId);
    expect(history.rows).toBe(items.length);
    expect(read).toEqual(expected.sort(byId));
    expect(read.filter((e) => !e.id.startsWith("simulator:code-")).map((e) => e.id)).toEqual(odd.map((id) => `simulator:${id}`).sort((a, b) => a.localeCompare(b)));
    // Flaps: a die's events share an episode, the id of its first event (which holds a separator).
    expect(new Set(read.filter((e) => e.code === "81078603").map((e) => e.episodeId))).toEqual(new Set(["simulator:a,b", "simulator:line\nfeed"]));
    expect(new Set(read.map((e) => e.code))).toEqual(new Set(["81078603", ...odd]));
    expect(history.bySeries.has("no such series")).toBe(false);
  });
});

// Ingestion judges new events against the tails of their series only (history.ts `packedTails`): the judgement it
// stores must be the one the rules give over the whole history, batch after batch, in or out of order.
describe("judging against the tails", () => {
  it("stores what a judgement of the whole history gives: flaps merged, the frequency rule counted across batches", async () => {
    const { db, pool } = testDatabase();
    await seedDemo(db, [demoA3Cluster(2, 3)]);
    const next = random(20);
    const t0 = Date.now() - 40 * 3_600_000;
    let at = t0;
    const batches: unknown[][] = [];
    for (let b = 0; b < 12; b++) {
      const batch: unknown[] = [];
      for (let i = 0; i < 25; i++) {
        // Gaps around the 60 s recover timeout and durations around the 20 s fault timeout; some open, some late.
        at += Math.floor(next() * (next() < 0.5 ? 90_000 : 1_200_000));
        const began = next() < 0.1 ? at - Math.floor(next() * 3 * 3_600_000) : at;
        const lasted = Math.floor(next() * 40_000);
        batch.push({
          cluster: "atlas-a3-demo",
          kind: "roce-link-down",
          source: "simulator",
          code: "81078603",
          target: { server: "sp0-node01", die: Math.floor(next() * 2) },
          beganAt: began,
          ...(next() < 0.15 ? {} : { endedAt: began + lasted }),
        });
      }
      batches.push(batch);
    }
    for (const batch of batches) {
      const result = await ingestFaultEvents(testDatabase(), batch, { atomic: "item", actor: systemActor });
      expect(result.counts.invalid).toBe(0);
    }
    const { rows } = await pool.query<{ series_key: string }>("select distinct series_key from fault_events where source = 'simulator'");
    const client = await pool.connect();
    try {
      const changes = await rejudgeSeries(client, 1, defaultEscalationSettings, rows.map((r) => r.series_key), t0 - 86_400_000, Date.now());
      expect(changes).toEqual([]);
    } finally {
      client.release();
    }
    const { rows: levels } = await pool.query<{ rule: string }>("select distinct rule from fault_events where source = 'simulator'");
    expect(new Set(levels.map((r) => r.rule))).toContain("fault-frequency");
  });
});
