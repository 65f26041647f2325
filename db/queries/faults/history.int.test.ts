import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabase } from "@/test/database";
import { noneFinishedSince } from "./history";

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

  it("is true when nothing else happened, and despite the transaction's own writes", async () => {
    expect(await quietAfter(async () => {})).toBe(true);
    expect(await quietAfter(async () => {}, true)).toBe(true);
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
      expect(await quietAfter(async () => {})).toBe(true);
      expect(await quietAfter(() => other.query("commit").then(() => {}))).toBe(false);
    } finally {
      await other.query("rollback").catch(() => {});
    }
  });

  it("is true after read-only transactions (they write nothing)", async () => {
    expect(await quietAfter(() => other.query("select count(*) from snapshot_probe").then(() => {}))).toBe(true);
  });
});
