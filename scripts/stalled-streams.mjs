/**
 * Preloaded into the console's server process by scripts/serve.ts (NODE_OPTIONS=--import), like peer-address.mjs.
 * A live event stream (GET /api/v1/events) whose client stops reading: once the kernel's socket buffers are full
 * (about 4 MB on Linux), Next.js waits for a `drain` that never comes; the stream's own bound
 * (server/faults/event-streams.ts) then stops queueing for it, but nothing would close the connection. Node's socket
 * timeout counts progress only (a write the kernel took, a read), so the connection of such a stream is closed after
 * RANKSCOPE_SSE_STALL_SECONDS (default 60; keep it above 20) without any: a healthy stream sends a keep-alive every
 * 20 s. When the response is over, the timeout is cleared, so a kept-alive connection's next request is not limited
 * by it.
 */
import http from "node:http";
import https from "node:https";

const seconds = Number(process.env.RANKSCOPE_SSE_STALL_SECONDS ?? 60);
const stallMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 60_000;

function watch(request, response) {
  const socket = request.socket;
  if (!socket) return;
  const onStall = () => socket.destroy();
  socket.setTimeout(stallMs, onStall);
  response.once("close", () => {
    socket.setTimeout(0);
    socket.off("timeout", onStall);
  });
}

for (const Server of [http.Server, https.Server]) {
  const emit = Server.prototype.emit;
  Server.prototype.emit = function emitWithStallWatch(event, ...args) {
    if (event === "request" && args[0] && args[1] && args[0].method === "GET" && (args[0].url ?? "").split("?")[0] === "/api/v1/events") watch(args[0], args[1]);
    return emit.call(this, event, ...args);
  };
}
