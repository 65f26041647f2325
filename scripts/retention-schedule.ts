import { connectDatabase } from "@/db/client";
import { runRetention } from "@/db/queries/faults";
import { retentionIntervalMs } from "@/lib/faults/retention";

/** Let the console come up before the first run. */
const firstRunDelayMs = 60_000;

/**
 * RANKSCOPE_RETENTION_INTERVAL_MS shortens the hour (and the first run's delay with it): `npm run test:cluster` runs
 * retention every few seconds on two instances to show that the advisory lock lets it run once.
 */
function intervalMs(): number {
  const configured = Number(process.env.RANKSCOPE_RETENTION_INTERVAL_MS);
  return Number.isInteger(configured) && configured > 0 ? configured : retentionIntervalMs;
}

/**
 * Fault-event retention inside the server process (scripts/serve.ts): every hour, each cluster's retention is applied
 * in short batches. Every instance schedules it; an advisory lock lets one of them run at a time. `stop()` ends it
 * between two batches.
 */
export function scheduleRetention(databaseUrl: string, log: (line: string) => void): { stop(): Promise<void> } {
  const handle = connectDatabase(databaseUrl, { max: 2 });
  const abort = new AbortController();
  let running: Promise<void> = Promise.resolve();
  const run = async () => {
    try {
      const results = await runRetention(handle.pool, { signal: abort.signal });
      if (results === null) log("retention: another instance is running it");
      for (const [slug, r] of results ?? []) {
        if (r.events > 0) log(`retention: ${slug}: ${r.mode === "archive" ? "archived" : "deleted"} ${r.events} fault events ended before ${new Date(r.cutoff).toISOString()}`);
      }
    } catch (error) {
      if (!abort.signal.aborted) log(`retention failed (next try in an hour): ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const tick = () => {
    running = running.then(run);
  };
  const every = intervalMs();
  const first = setTimeout(tick, Math.min(firstRunDelayMs, every));
  const repeat = setInterval(tick, every);
  first.unref();
  repeat.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(repeat);
      abort.abort();
      await running;
      await handle.pool.end();
    },
  };
}
