import { appDatabase } from "@/db/client";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { route } from "@/server/auth/guard";
import { openEventStream } from "@/server/faults/event-streams";

export const dynamic = "force-dynamic";

/**
 * `GET /api/v1/events[?cluster=<slug or id>]`: server-sent events. `event: faults` with `{clusterId, slug,
 * changed, at}` whenever fault events of the cluster (or any, without `cluster`) are written, within a moment of
 * the commit (PostgreSQL LISTEN/NOTIFY, one connection per instance). The LISTEN is in place before the response
 * starts, so nothing committed after the first byte is missed; when the server's LISTEN connection was lost and is
 * back (PostgreSQL restarted), `event: resync` with `{at}` says notices may have been missed: the client fetches
 * again. `retry: 3000` tells the browser to reconnect after 3 s; a comment line every 20 s keeps proxies from closing
 * the stream. The server ends a stream after `max` seconds (default 600, 0–3600; the browser then reconnects), so no
 * connection lives forever. An unknown cluster is a 404 before the stream starts. Past the streams an instance or a
 * user may hold, 503 / 429 `too_many_streams` with Retry-After; a client that stops reading is dropped
 * (server/faults/event-streams.ts).
 */
export const GET = route("read", async ({ request, principal }) => {
  const params = new URL(request.url).searchParams;
  const wanted = params.get("cluster");
  const cluster = wanted === null ? undefined : await getClusterOrThrow(appDatabase().db, wanted);
  return openEventStream({
    owner: `${principal.kind}:${principal.id}`,
    clusterId: cluster?.id,
    maxSeconds: Math.min(3600, Math.max(0, Number(params.get("max") ?? 600) || 0)),
    signal: request.signal,
  });
});
