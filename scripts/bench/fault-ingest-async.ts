/**
 * The async half of the ingestion bench (scripts/bench/fault-ingest.ts): batches posted with `Prefer: respond-async`
 * to the same route server, 4 in flight, answered 202 once stored in the inbox; then the inbox judged in this
 * process (judgeInbox, as the supervisor's judge runs it: scripts/inbox-judge.ts), once a batch per judgement and once
 * in groups of 20,000 events. Prints the receipt's events/s and CPU, and the judgement's events/s and CPU per 1,000
 * events (this process, PostgreSQL).
 */
import type { DatabaseHandle } from "@/db/client";
import { inboxBacklog, judgeInbox } from "@/db/queries/faults";
import { loadAverage, ms, spread } from "./percentiles";

/** Batches per async pass, and the passes' judgement group sizes (events): a batch at a time, then 20 batches. */
export const ASYNC_BATCHES = 40;
const GROUPS = [1_000, 20_000] as const;
export const asyncBatches = ASYNC_BATCHES * GROUPS.length;
const IN_FLIGHT = 4;
const BATCH = 1000;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

export interface AsyncBenchContext {
  handle: DatabaseHandle;
  base: string;
  token: string;
  /** CPU ms so far of the route process and of PostgreSQL, or null off Linux. */
  cpu: () => Promise<{ route: number; postgres: number } | null>;
  body: () => string;
}

/** Sends `bodies` with `concurrency` in flight, each sender taking the next when free; the latencies (ms). */
export async function sendInFlight(bodies: string[], concurrency: number, send: (body: string) => Promise<void>): Promise<number[]> {
  let next = 0;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const sentAt = performance.now();
        await send(bodies[next++]!);
        latencies.push(performance.now() - sentAt);
      }
    }),
  );
  return latencies;
}

async function postAsync(context: AsyncBenchContext, body: string): Promise<void> {
  const response = await fetch(`${context.base}/api/v1/fault-events?atomic=all`, {
    method: "POST",
    headers: { authorization: `Bearer ${context.token}`, "content-type": "application/json", prefer: "respond-async" },
    body,
  });
  const text = await response.text();
  if (response.status !== 202) throw new Error(`POST /api/v1/fault-events (respond-async) answered ${response.status}: ${text.slice(0, 500)}`);
}

export async function runAsyncIngestBench(context: AsyncBenchContext): Promise<void> {
  const per1000 = (ms: number) => (ms * BATCH) / (ASYNC_BATCHES * BATCH);
  for (const group of GROUPS) {
    const bodies = Array.from({ length: ASYNC_BATCHES }, context.body);
    const before = await context.cpu();
    const began = performance.now();
    const latencies = await sendInFlight(bodies, IN_FLIGHT, (body) => postAsync(context, body));
    const received = (performance.now() - began) / 1000;
    const stored = await context.cpu();
    const { p50, p95 } = spread(latencies);
    const events = ASYNC_BATCHES * BATCH;
    const receiptCpu = before && stored ? `; CPU per 1,000 events: route process ${fmt(per1000(stored.route - before.route))} ms, PostgreSQL ${fmt(per1000(stored.postgres - before.postgres))} ms` : "";
    console.log(`async receipt (Prefer: respond-async, 202 once stored), ${IN_FLIGHT} in flight, ${ASYNC_BATCHES} batches: ${fmt(events / received)} events/s (batch p50 ${ms(p50)}, p95 ${ms(p95)}${receiptCpu}; load average ${loadAverage()})`);

    const judgeStart = process.cpuUsage();
    const judgedAt = performance.now();
    const judged = await judgeInbox(context.handle, { maxGroupEvents: group });
    const seconds = (performance.now() - judgedAt) / 1000;
    const after = await context.cpu();
    const usage = process.cpuUsage(judgeStart);
    if (judged?.events !== events || (await inboxBacklog(context.handle.pool)).batches !== 0) throw new Error(`the judge took ${JSON.stringify(judged)} of ${events} events`);
    const judgeCpu = stored && after ? `; CPU per 1,000 events: judge ${fmt(per1000((usage.user + usage.system) / 1000))} ms, PostgreSQL ${fmt(per1000(after.postgres - stored.postgres))} ms` : "";
    console.log(`inbox judgement, groups of up to ${fmt(group)} events: ${fmt(events / seconds)} events/s${judgeCpu}; load average ${loadAverage()}`);
  }
}
