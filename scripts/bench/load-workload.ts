import { liveWindowEnd } from "@/lib/faults/url";
import { gzipJsonAccept } from "@/lib/gzip-answer";

/* What the load bench (./load.ts) runs: how many viewers and feeders, for how long, and the calls of each page. */

export const VIEWERS = 100;
export const TARGET = 20_000;
export const BATCH = 1000;
/** LOAD_BENCH_FEEDERS=0: the viewers alone, to tell their own cost from ingestion's. */
export const FEEDERS = Number(process.env.LOAD_BENCH_FEEDERS ?? 8);
export const WARM_UP_SECONDS = 5;
export const ASYNC = process.env.LOAD_BENCH_ASYNC !== "0";
/** How long the inbox may take to empty after a phase before the bench goes on regardless. */
export const DRAIN_LIMIT_SECONDS = 180;
export const SECONDS = Number(process.env.LOAD_BENCH_SECONDS ?? 30);
const cluster = "atlas-a3-demo";
const day = 86_400_000;

/** `accept`: what the page asks with, when not plain JSON (the timeline and statistics as gzip: lib/gzip-answer.ts). */
type Call = [endpoint: string, path: string, accept?: string];

/** The API calls each page makes when it loads (components/topology/queries.ts, components/faults/api.ts, …). */
export function pageCalls(now: number): Call[][] {
  // The live window as the faults page asks it (lib/faults/url.ts): its end rounded up to the page clock's step.
  const to = liveWindowEnd(now);
  const window = `from=${to - day}&to=${to}`;
  return [
    [
      ["GET topology (cluster view)", `/api/v1/clusters/${cluster}/topology?level=cluster`],
      ["GET fault-events/health", `/api/v1/fault-events/health?cluster=${cluster}`],
    ],
    [
      ["GET fault-events (timeline, 24 h)", `/api/v1/fault-events?cluster=${cluster}&${window}&state=all`, gzipJsonAccept],
      ["GET fault-events/stats (24 h)", `/api/v1/fault-events/stats?cluster=${cluster}&${window}`, gzipJsonAccept],
    ],
    [
      ["GET clusters", "/api/v1/clusters"],
      ["GET rank-tables", "/api/v1/rank-tables"],
      ["GET jobs", "/api/v1/jobs"],
    ],
  ];
}

export const ingestEndpoint = `POST fault-events (1,000 events${ASYNC ? ", respond-async" : ""})`;
