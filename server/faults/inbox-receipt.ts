import "server-only";
import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import type { AuditActor } from "@/db/queries/audit";
import { inboxBacklog, storeInboxBatch, type InboxBacklog } from "@/db/queries/faults";
import { maxBatchBytes } from "@/db/schema/fault-event/constants";
import { parseFaultEventInput } from "@/db/schema/fault-event/fast-input";
import { batchSchema } from "@/db/schema/fault-event/validation";
import { zodIssueProblem, type FaultProblem } from "@/lib/faults/errors";
import { readJson } from "@/server/http/body";
import { ApiError } from "@/server/http/errors";
import { admitIngest, inboxReceiptLimits } from "./ingest-admission";
import { inboxBudget, takeIngestBudget } from "./ingest-budget";

/*
 * POST /api/v1/fault-events with `Prefer: respond-async` (RFC 7240): the batch is checked item by item as the
 * synchronous path checks it first (each item's shape and values: fast-input.ts, the zod schema's twin), stored in
 * the inbox in one INSERT and answered 202 once committed; the inbox judge (db/queries/faults/inbox.ts, run by every
 * instance's supervisor: scripts/inbox-judge.ts) judges it soon after, with the batches around it.
 */

/**
 * Events the inbox may hold before async posts are refused (429 `inbox_full`, Retry-After), so a judge that cannot
 * keep up makes the feeders wait instead of the inbox growing: one judgement group, 10–20 s of what the judge took
 * on the load bench's shared 2 cores (1,000–2,000 events/s). With 200,000 the lag reached 30 s and the viewers' p95
 * 35–40 s; with 20,000 the lag stayed 9–29 s and the p95 24–35 s (README, "Live connections and load").
 * `RANKSCOPE_INBOX_MAX_EVENTS` changes it.
 */
export const defaultInboxMaxEvents = 20_000;

export function inboxMaxEvents(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.RANKSCOPE_INBOX_MAX_EVENTS);
  return Number.isInteger(n) && n > 0 ? n : defaultInboxMaxEvents;
}

/** How long an instance trusts the depth it read: one aggregate a second at most, whatever the number of posts. */
const depthTtlMs = 1_000;
const inboxRetryAfterSeconds = 2;

const globalForInbox = globalThis as typeof globalThis & { rankscopeInboxDepth?: { at: number; backlog: Promise<InboxBacklog> } };

/** The inbox's backlog as read at most `depthTtlMs` ago; this instance's own stores since are added by the caller. */
function recentBacklog(now = performance.now()): Promise<InboxBacklog> {
  const cached = globalForInbox.rankscopeInboxDepth;
  if (cached && now - cached.at < depthTtlMs) return cached.backlog;
  const backlog = inboxBacklog(appDatabase().pool);
  globalForInbox.rankscopeInboxDepth = { at: now, backlog };
  backlog.catch(() => (globalForInbox.rankscopeInboxDepth = undefined));
  return backlog;
}

async function assertInboxRoom(): Promise<void> {
  const max = inboxMaxEvents();
  const { events, oldestAgeMs } = await recentBacklog();
  if (events < max) return;
  throw new ApiError(
    429,
    "inbox_full",
    `the fault-event inbox holds ${events.toLocaleString("en-US")} events not judged yet (at most ${max.toLocaleString("en-US")}, RANKSCOPE_INBOX_MAX_EVENTS; the oldest waits ${Math.round((oldestAgeMs ?? 0) / 1000)} s): nothing was stored; retry in ${inboxRetryAfterSeconds} s`,
    { events, maxEvents: max, oldestAgeMs, retryAfterSeconds: inboxRetryAfterSeconds },
    { "retry-after": String(inboxRetryAfterSeconds) },
  );
}

/** An item refused on receipt, as the synchronous answer lists it. */
interface RefusedItem {
  index: number;
  status: "invalid";
  error: FaultProblem;
}

/**
 * Receives a batch into the inbox. `atomic=all`: any invalid item and nothing is stored (422 `invalid_events`, as
 * without the header); `atomic=item`: the valid items are stored and the invalid ones listed in the 202. What only
 * the stored data can tell (an unknown cluster or target, an event past retention, an end with nothing open) the
 * judge finds: it refuses those items alone, whatever `atomic` was, and names them in its audit entry.
 */
export async function receiveIntoInbox(request: Request, actor: AuditActor, atomic: "all" | "item"): Promise<Response> {
  // Before the body is read: a full inbox or a busy instance costs the feeder one round trip, the server nothing.
  await assertInboxRoom();
  const release = await admitIngest(request.signal, inboxReceiptLimits, "inbox");
  try {
    const items = await readJson(request, batchSchema, maxBatchBytes);
    takeIngestBudget(items.length, inboxBudget);
    const refused: RefusedItem[] = [];
    const valid: unknown[] = [];
    const positions: number[] = [];
    items.forEach((item, index) => {
      const parsed = parseFaultEventInput(item);
      if (parsed.success) {
        valid.push(item);
        positions.push(index);
      } else refused.push({ index, status: "invalid", error: zodIssueProblem(parsed.error.issues[0]!) });
    });
    if (atomic === "all" && refused.length > 0) {
      throw new ApiError(422, "invalid_events", `${refused.length} of ${items.length} events are invalid; nothing was written`, {
        counts: { created: 0, closed: 0, unchanged: 0, invalid: refused.length },
        items: refused,
      });
    }
    const stored = valid.length ? await storeInboxBatch(appDatabase().pool, { actor, items: valid, positions: refused.length ? positions : null }) : null;
    return NextResponse.json(
      { accepted: valid.length, inbox: stored?.id ?? null, receivedAt: stored?.receivedAt ?? null, invalid: refused.length, items: refused },
      { status: 202, headers: { "preference-applied": "respond-async" } },
    );
  } finally {
    release();
  }
}
