import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { inboxBacklog } from "@/db/queries/faults";
import { route } from "@/server/auth/guard";
import { inboxMaxEvents } from "@/server/faults/inbox-receipt";

export const dynamic = "force-dynamic";

/**
 * `GET /api/v1/fault-events/inbox`: the batches posted with `Prefer: respond-async` and not judged yet, on every
 * cluster: `{batches, events, oldestReceivedAt, oldestAgeMs, maxEvents}` (the oldest's age is the judge's lag; past
 * `maxEvents` async posts are refused with 429 `inbox_full`). Read from the primary: the backlog is now, not as of a
 * replica.
 */
export const GET = route("read", async () => {
  const backlog = await inboxBacklog(appDatabase().pool);
  return NextResponse.json({ ...backlog, maxEvents: inboxMaxEvents() }, { headers: { "cache-control": "no-store" } });
});
