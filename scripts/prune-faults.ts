/**
 * `npx tsx scripts/prune-faults.ts [--dry-run]`: retention. For every cluster, deletes the fault events that ended
 * more than its `retentionDays` ago (GET/PUT /api/v1/fault-events/settings; 400 days by default), 5,000 rows per
 * statement, each statement its own short transaction (rows locked by a running ingestion are skipped and taken
 * next time), so ingestion never waits on it. Open events are never deleted. Run it daily (cron, a Kubernetes
 * CronJob). --dry-run counts instead.
 */
import { parseArgs } from "node:util";
import { getFaultSettings } from "@/db/queries/settings";
import { pruneFaultEvents } from "@/db/queries/faults-timeline";
import { withDatabase } from "./database";

const { values } = parseArgs({ options: { "dry-run": { type: "boolean", default: false } } });

await withDatabase(async ({ pool }) => {
  const { rows: clusters } = await pool.query<{ id: number; slug: string }>("select id, slug from clusters order by id");
  for (const cluster of clusters) {
    const { retentionDays } = await getFaultSettings(pool, cluster.id);
    const before = Date.now() - retentionDays * 86_400_000;
    if (values["dry-run"]) {
      const { rows } = await pool.query<{ n: string }>("select count(*) n from fault_events where cluster_id = $1 and ended_at < $2::timestamptz", [cluster.id, new Date(before).toISOString()]);
      console.log(`${cluster.slug}: ${rows[0]!.n} events ended before ${new Date(before).toISOString()} (retention ${retentionDays} days) would be deleted`);
      continue;
    }
    const deleted = await pruneFaultEvents(pool, cluster.id, before);
    console.log(`${cluster.slug}: deleted ${deleted} events ended before ${new Date(before).toISOString()} (retention ${retentionDays} days)`);
  }
});
