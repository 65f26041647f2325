import "server-only";
import { ApiError } from "@/server/http/errors";

/**
 * An events/s budget per instance (process) for POST /api/v1/fault-events: `RANKSCOPE_INGEST_EVENTS_PER_SECOND`
 * (5,000 by default; 0: none), a token bucket holding one second of it. A batch takes as many tokens as it has
 * events; when the bucket holds fewer (or, for a batch larger than a second's budget, is not full) the batch is
 * refused with 429 `ingest_over_budget` and Retry-After (the seconds until the tokens are there), writing nothing.
 * Without it a flood past what the instance ingests was queued by the admission bound (ingest-admission.ts) until
 * each batch took 10 s while the pages waited (issue 20, item 7). Read at each request, like the admission bound.
 */
export const defaultEventsPerSecond = 5_000;

/**
 * A budget: its bucket and the variable setting it. Batches posted with `Prefer: respond-async` have their own
 * (`RANKSCOPE_INBOX_EVENTS_PER_SECOND`, 20,000 by default): storing a batch in the inbox costs a few ms of this
 * process, not the judgement (db/queries/faults/inbox.ts), so it bounds only the receipts' cost to the viewers.
 */
export interface IngestBudget {
  name: string;
  env: string;
  fallback: number;
}

export const syncBudget: IngestBudget = { name: "sync", env: "RANKSCOPE_INGEST_EVENTS_PER_SECOND", fallback: defaultEventsPerSecond };
export const inboxBudget: IngestBudget = { name: "inbox", env: "RANKSCOPE_INBOX_EVENTS_PER_SECOND", fallback: 20_000 };

export function ingestEventsPerSecond(env: NodeJS.ProcessEnv = process.env, budget: IngestBudget = syncBudget): number {
  const value = env[budget.env];
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isFinite(n) && n >= 0 ? n : budget.fallback;
}

interface Bucket {
  tokens: number;
  at: number;
  rate: number;
}

// One bucket per budget and process, whatever number of times the route's module is loaded.
const globalForBudget = globalThis as typeof globalThis & { rankscopeIngestBudgets?: Map<string, Bucket> };

function refill(name: string, rate: number, now: number): Bucket {
  const buckets = (globalForBudget.rankscopeIngestBudgets ??= new Map());
  const bucket = buckets.get(name) ?? buckets.set(name, { tokens: rate, at: now, rate }).get(name)!;
  if (bucket.rate !== rate) Object.assign(bucket, { tokens: rate, rate });
  bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
  bucket.at = now;
  return bucket;
}

/** Takes `events` from this instance's budget, or throws the 429 saying when to retry. */
export function takeIngestBudget(events: number, budget: IngestBudget = syncBudget, now = performance.now(), rate = ingestEventsPerSecond(process.env, budget)): void {
  if (rate === 0 || events === 0) return;
  const bucket = refill(budget.name, rate, now);
  const needed = Math.min(events, rate);
  if (bucket.tokens >= needed) {
    bucket.tokens -= events;
    return;
  }
  const seconds = Math.max(1, Math.ceil((needed - bucket.tokens) / rate));
  throw new ApiError(
    429,
    "ingest_over_budget",
    `this server ingests at most ${rate.toLocaleString("en-US")} events/s (${budget.env}) and has taken that much: this batch of ${events.toLocaleString("en-US")} was not written; retry in ${seconds} s`,
    { eventsPerSecond: rate, retryAfterSeconds: seconds },
    { "retry-after": String(seconds) },
  );
}
