/**
 * `npx tsx scripts/prune-faults.ts [--dry-run]`: retention, as the server runs it every hour (scripts/serve.ts). For
 * every cluster, deletes or archives (its retention mode) the fault events that ended more than its retention days
 * ago (400 days and delete by default), 5,000 rows per transaction, so ingestion never waits on it. Open events are
 * kept. Skips the run when another process is applying retention on the same database. --dry-run counts instead.
 */
import { parseArgs } from "node:util";
import { getRetention, runRetention } from "@/db/queries/faults";
import { retentionCutoff } from "@/lib/faults/retention";
import { withDatabase } from "./database";

const { values } = parseArgs({ options: { "dry-run": { type: "boolean", default: false } } });

await withDatabase(async ({ pool }) => {
  const now = Date.now();
  if (values["dry-run"]) {
    const { rows: clusters } = await pool.query<{ id: number; slug: string }>("select id, slug from clusters order by id");
    for (const cluster of clusters) {
      const settings = await getRetention(pool, cluster.id);
      const cutoff = new Date(retentionCutoff(settings, now)).toISOString();
      const { rows } = await pool.query<{ n: string }>("select count(*) n from fault_events where cluster_id = $1 and ended_at < $2::timestamptz", [cluster.id, cutoff]);
      console.log(`${cluster.slug}: ${rows[0]!.n} events ended before ${cutoff} (retention ${settings.days} days) would be ${settings.mode === "archive" ? "archived" : "deleted"}`);
    }
    return;
  }
  const results = await runRetention(pool, { now });
  if (!results) {
    console.log("another process is applying retention on this database; nothing done");
    return;
  }
  for (const [slug, r] of results) {
    console.log(`${slug}: ${r.mode === "archive" ? "archived" : "deleted"} ${r.events} events ended before ${new Date(r.cutoff).toISOString()} in ${r.batches} batches`);
  }
});
