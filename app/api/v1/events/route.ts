import { appDatabase } from "@/db/client";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { route } from "@/server/auth/guard";
import { subscribeFaults } from "@/server/faults/notifications";

export const dynamic = "force-dynamic";

const heartbeatMs = 20_000;

/**
 * `GET /api/v1/events[?cluster=<slug or id>]`: server-sent events. `event: faults` with `{clusterId, slug,
 * changed, at}` whenever fault events of the cluster (or any, without `cluster`) are written, within a moment of
 * the commit (PostgreSQL LISTEN/NOTIFY). The LISTEN is in place before the response starts, so nothing committed
 * after the first byte is missed; when the server's LISTEN connection was lost and is back (PostgreSQL restarted),
 * `event: resync` with `{at}` says notices may have been missed: the client fetches again. `retry: 3000` tells the
 * browser to reconnect after 3 s; a comment line every 20 s keeps proxies from closing the stream. The server ends a stream after `max` seconds (default 600, 0–3600;
 * the browser then reconnects), so no connection lives forever. An unknown cluster is a 404 before the stream starts.
 */
export const GET = route("read", async ({ request }) => {
  const params = new URL(request.url).searchParams;
  const wanted = params.get("cluster");
  const cluster = wanted === null ? undefined : await getClusterOrThrow(appDatabase().db, wanted);
  const maxSeconds = Math.min(3600, Math.max(0, Number(params.get("max") ?? 600) || 0));
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const pending: string[] = [];
  const send = (text: string) => {
    if (!controller) {
      pending.push(text);
      return;
    }
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      cleanup();
    }
  };
  const unsubscribe = await subscribeFaults(
    (notice) => {
      if (cluster && notice.clusterId !== cluster.id) return;
      send(`event: faults\ndata: ${JSON.stringify(notice)}\n\n`);
    },
    () => send(`event: resync\ndata: ${JSON.stringify({ at: Date.now() })}\n\n`),
  );
  const heartbeat = setInterval(() => send(`: keep-alive\n\n`), heartbeatMs);
  const limit = setTimeout(() => cleanup(), maxSeconds * 1000);
  let closed = false;
  function cleanup() {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    clearTimeout(limit);
    unsubscribe();
    try {
      controller?.close();
    } catch {
      // already closed
    }
  }
  request.signal.addEventListener("abort", cleanup);
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(encoder.encode(`retry: 3000\n: connected\n\n`));
      for (const text of pending.splice(0)) c.enqueue(encoder.encode(text));
    },
    cancel: cleanup,
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", connection: "keep-alive", "x-accel-buffering": "no" },
  });
});
