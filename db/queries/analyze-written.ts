import { sql } from "drizzle-orm";
import type { Database } from "../client";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** From this many rows written (an import's dies, a job's ranks), the writer analyzes the tables it filled. */
const ANALYZE_FROM_ROWS = 10_000;

/**
 * Table statistics for the rows just written, inside the writer's transaction (ANALYZE counts the transaction's own
 * rows). Until autovacuum analyzes them (a minute or more later, never where it is off), PostgreSQL plans the first
 * reads of a large write as if its tables were as small as before: a super pod's bus planes then read all 3.7M
 * uplinks of a 524,288-NPU A3 cluster instead of its 128 servers' (0.5 s a view instead of 7 ms; scripts/bench/scale.ts),
 * and the job page's faults, filtered by a 100,000-rank job's dies, intersected every event's die with all the job's
 * ranks (13 s instead of 0.08 s; issue 21). A small sample (statistics target 10: 3,000 rows a table) gives the sizes,
 * which is what those plans miss: 0.5 s instead of 12.9 s with the default target at 1,048,576 dies (load 7);
 * autovacuum refines it later. A role that does not own a table gets a warning for it, not an error. Small writes
 * leave it to autovacuum. `tables`: a fixed list of table names, never input.
 */
export async function analyzeWritten(tx: Tx, rows: number, tables: string): Promise<void> {
  if (rows < ANALYZE_FROM_ROWS) return;
  await tx.execute(sql`set local default_statistics_target = 10`);
  await tx.execute(sql.raw(`analyze ${tables}`));
  await tx.execute(sql`set local default_statistics_target to default`);
}
