import "server-only";
import { ApiError } from "@/server/http/errors";

/**
 * Admission control for POST /api/v1/fault-events: how many batches one instance (process) ingests at a time, and
 * how many may wait for a turn. A batch is CPU on both sides (this process and PostgreSQL, one after the other), so
 * a flood of feeders offered more than the machine can take would otherwise take every core and leave the people
 * browsing waiting seconds for a page (issue 20, item 7: the load bench). Past the bound the answer is 429
 * `ingest_busy` with Retry-After, before the body is read; device plugins retry, and a retried batch duplicates
 * nothing (ingestion is idempotent by event id), so a refusal loses nothing and delays little.
 *
 * Read from the environment at each request, so tests and operators change them without a rebuild:
 * - `RANKSCOPE_INGEST_CONCURRENCY`: batches ingested at the same time per instance (1: one batch keeps about one
 *   core busy between this process and PostgreSQL; on a 2-core machine the other is left for pages).
 * - `RANKSCOPE_INGEST_QUEUE`: batches that may wait for a turn (8: a feeder's parallel senders are queued, not refused).
 * - `RANKSCOPE_INGEST_WAIT_MS`: how long a batch may wait (10,000 ms); past it, it is refused like a full queue.
 */
export interface IngestLimits {
  concurrency: number;
  queue: number;
  waitMs: number;
}

export const defaultIngestLimits: IngestLimits = { concurrency: 1, queue: 8, waitMs: 10_000 };

/**
 * Batches posted with `Prefer: respond-async` have a gate of their own: storing one in the inbox takes a few ms (parse,
 * check, one INSERT), so two at a time keep a feeder's senders moving without a core of their own, and a sync batch
 * judging meanwhile does not hold them up.
 */
export const inboxReceiptLimits: IngestLimits = { concurrency: 2, queue: 16, waitMs: 5_000 };

/** Seconds a refused feeder is told to wait: about what a few batches take. */
export const ingestRetryAfterSeconds = 1;

function whole(value: string | undefined, fallback: number, min: number): number {
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isInteger(n) && n >= min ? n : fallback;
}

export function ingestLimits(env: NodeJS.ProcessEnv = process.env): IngestLimits {
  return {
    concurrency: whole(env.RANKSCOPE_INGEST_CONCURRENCY, defaultIngestLimits.concurrency, 1),
    queue: whole(env.RANKSCOPE_INGEST_QUEUE, defaultIngestLimits.queue, 0),
    waitMs: whole(env.RANKSCOPE_INGEST_WAIT_MS, defaultIngestLimits.waitMs, 0),
  };
}

interface Waiter {
  admit: () => void;
}

interface Gate {
  running: number;
  waiting: Waiter[];
}

/** The judged batches (`sync`) and the ones stored in the inbox (`inbox`) wait at gates of their own. */
export type IngestGate = "sync" | "inbox";

// One gate of each per process, whatever number of times the route's module is loaded.
const globalForIngest = globalThis as typeof globalThis & { rankscopeIngestGates?: Map<IngestGate, Gate> };

function gate(name: IngestGate): Gate {
  const gates = (globalForIngest.rankscopeIngestGates ??= new Map());
  return gates.get(name) ?? gates.set(name, { running: 0, waiting: [] }).get(name)!;
}

/** Batches ingesting and waiting in this process (tests and benches read it). */
export function ingestLoad(name: IngestGate = "sync"): { running: number; waiting: number } {
  const g = gate(name);
  return { running: g.running, waiting: g.waiting.length };
}

function busy(limits: IngestLimits, why: string): ApiError {
  const seconds = ingestRetryAfterSeconds;
  return new ApiError(
    429,
    "ingest_busy",
    `this server is ingesting its limit of ${limits.concurrency} batch${limits.concurrency === 1 ? "" : "es"} at a time ${why}: nothing was written; retry in ${seconds} s`,
    { concurrency: limits.concurrency, queue: limits.queue, retryAfterSeconds: seconds },
    { "retry-after": String(seconds) },
  );
}

/** For a client that went away while its batch waited: nobody reads it (nginx's 499), and it is not logged as a failure. */
const gone = () => new ApiError(499, "client_closed_request", "the client went away while its batch waited for a turn: nothing was written");

/**
 * Waits for an ingestion turn and resolves to its release (which frees the turn once, however often it is called),
 * or rejects with the 429 when the queue is full, the wait runs past `waitMs`, or the client goes away (`signal`).
 */
export function admitIngest(signal?: AbortSignal, limits: IngestLimits = ingestLimits(), name: IngestGate = "sync"): Promise<() => void> {
  const g = gate(name);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    g.running--;
    // The turn passes to the first waiter (one still waiting: the others left the queue when they gave up).
    const next = g.waiting.shift();
    if (next) next.admit();
  };
  if (g.running < limits.concurrency && g.waiting.length === 0) {
    g.running++;
    return Promise.resolve(release);
  }
  if (g.waiting.length >= limits.queue) return Promise.reject(busy(limits, `and ${limits.queue} waiting`));
  if (signal?.aborted) return Promise.reject(gone());
  return new Promise((resolve, reject) => {
    const leave = (error: unknown) => {
      const at = g.waiting.indexOf(waiter);
      if (at >= 0) g.waiting.splice(at, 1);
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      reject(error);
    };
    const onAbort = () => leave(gone());
    const waiter: Waiter = {
      admit: () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        g.running++;
        resolve(release);
      },
    };
    const timer = setTimeout(() => leave(busy(limits, `and this batch waited ${limits.waitMs / 1000} s for a turn`)), limits.waitMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    g.waiting.push(waiter);
  });
}
