import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { ingestFaultEvents, listTimeline } from "@/db/queries/faults";
import { maxBatchBytes } from "@/db/schema/fault-event/constants";
import { batchSchema, ingestQuerySchema, timelineQuerySchema } from "@/db/schema/fault-event/validation";
import { queryObject } from "@/server/faults/http";
import { admitIngest } from "@/server/faults/ingest-admission";
import { takeIngestBudget } from "@/server/faults/ingest-budget";
import { receiveIntoInbox } from "@/server/faults/inbox-receipt";
import { prefers } from "@/server/http/prefer";
import { unproxiedRoute } from "@/server/auth/guard";
import { methodNotAllowedRoute } from "@/server/http/method-not-allowed";
import { readJson } from "@/server/http/body";
import { ApiError } from "@/server/http/errors";
import { faultDataWritten, readKey, sharedFaultJson } from "@/server/faults/read-cache";

export const dynamic = "force-dynamic";

/**
 * `GET /api/v1/fault-events?cluster=&from=&to=[&kind=…&level=…&code=&target=&state=open|closed|all&limit=]`:
 * the events overlapping the window (began before `to`, not ended before `from`), a density of the window, and
 * the total. Times are ISO 8601 or epoch ms.
 */
export const GET = unproxiedRoute("read", async ({ request }) => {
  const query = timelineQuerySchema.parse(queryObject(request, ["kind", "level"]));
  return sharedFaultJson(request, query.cluster, readKey("timeline", request), async ({ db, pool }) => listTimeline(pool, await getClusterOrThrow(db, query.cluster), query));
});

/**
 * `POST /api/v1/fault-events[?atomic=all|item]`: a JSON array of at most 10,000 events. Answers 200 with
 * `{changed, counts: {created, closed, unchanged, invalid}, items: [{index, status, id?, error?}]}`; with
 * `atomic=all` (the default) one invalid item writes nothing and answers 422 `invalid_events` with the items.
 * `dryRun=1` says what would happen and writes nothing. Past the instance's ingestion bound (a few batches at a
 * time and a short queue: server/faults/ingest-admission.ts) 429 `ingest_busy` with Retry-After, before the body is read;
 * past its events/s budget (server/faults/ingest-budget.ts) 429 `ingest_over_budget` with Retry-After, writing nothing.
 *
 * With `Prefer: respond-async` (and not `dryRun`): the batch is checked, stored in the inbox and answered 202
 * `{accepted, inbox, receivedAt, invalid, items}` with `Preference-Applied: respond-async` once committed; it is
 * judged soon after with the batches around it (server/faults/inbox-receipt.ts; GET /api/v1/fault-events/inbox: the backlog).
 */
export const POST = unproxiedRoute("write", async ({ request, actor }) => {
  const { atomic, dryRun } = ingestQuerySchema.parse(queryObject(request));
  if (!dryRun && prefers(request, "respond-async")) return receiveIntoInbox(request, actor, atomic);
  const release = await admitIngest(request.signal);
  try {
    const items = await readJson(request, batchSchema, maxBatchBytes);
    if (!dryRun) takeIngestBudget(items.length);
    const result = await ingestFaultEvents(appDatabase(), items, { atomic, actor, dryRun });
    if (result.changed) faultDataWritten();
    if (atomic === "all" && result.counts.invalid > 0) {
      throw new ApiError(422, "invalid_events", `${result.counts.invalid} of ${items.length} events are invalid; nothing was written`, {
        counts: result.counts,
        items: result.items.filter((item) => item.status === "invalid"),
      });
    }
    return NextResponse.json(result);
  } finally {
    release();
  }
});

/** The methods this route lacks: with a body they skip proxy.ts, so the route gives its 405 (error shape, Allow) itself. */
export const PUT = methodNotAllowedRoute;
export const PATCH = methodNotAllowedRoute;
export const DELETE = methodNotAllowedRoute;
