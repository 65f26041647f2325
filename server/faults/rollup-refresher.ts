import "server-only";
import { appDatabase } from "@/db/client";
import { refreshFaultRollupsUnlessBusy } from "@/db/queries/faults";
import { CoalescedRuns } from "@/lib/coalesced-runs";

/*
 * The statistics rollups brought up to date after ingestion, off the viewers' path (issue 20, item 7): readers no
 * longer refresh them (they read stale hours from fault_events: db/queries/faults/rollups.ts rollupRead), so this
 * only keeps what they read from fault_events small. Every instance hears every batch's NOTIFY; each asks for a
 * refresh of the cluster, coalesced (lib/coalesced-runs.ts), and one instance at a time does it (an instance that
 * finds another's refresh running skips, as that one runs again after the notices it heard meanwhile).
 */

/**
 * At most one refresh per cluster and instance per this long plus its duration: a refresh rebuilds the stale hours
 * and their days whole, which under a steady feed is the same hot hour again and again (seconds of PostgreSQL at the
 * load bench's density), while a reader's cost of a stale hour is reading its events once per revision.
 */
const refreshDelayMs = 5_000;

const globalForRefresher = globalThis as typeof globalThis & { rankscopeRollupRefresher?: CoalescedRuns<number> };

/** Asks for the stale rollups of a cluster to be recomputed soon (its events changed). */
export function refreshRollupsSoon(clusterId: number): void {
  globalForRefresher.rankscopeRollupRefresher ??= new CoalescedRuns<number>((id) => refreshFaultRollupsUnlessBusy(appDatabase().pool, id), {
    delayMs: refreshDelayMs,
    onError: (error) => console.warn(`[rankscope] fault rollup refresh failed (again after the next batch): ${error instanceof Error ? error.message : String(error)}`),
  });
  globalForRefresher.rankscopeRollupRefresher.ask(clusterId);
}
