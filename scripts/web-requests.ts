/**
 * Node's http requests as web Requests and web Responses written back, for the scripts that serve route handlers
 * behind a plain node:http server without a Next.js build (the fault-injection suite's app process, the ingestion
 * bench's server): as `next start` hands them to a route handler, headers with one value each, a body as given.
 */
import type http from "node:http";
import { Readable } from "node:stream";

/** `incoming` as a web Request with `body` (a buffer, or a stream of the body as it arrives) and `signal`. */
export function webRequestOf(incoming: http.IncomingMessage, body?: BodyInit, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
  const url = `http://${incoming.headers.host ?? "localhost"}${incoming.url ?? "/"}`;
  return new Request(url, { method: incoming.method, headers, body, signal, ...(body instanceof ReadableStream ? { duplex: "half" } : {}) });
}

/** The body of `incoming` as it arrives, for a handler that streams it. */
export const streamedBody = (incoming: http.IncomingMessage) => Readable.toWeb(incoming) as ReadableStream<Uint8Array>;

/** Writes `response` to `outgoing`: its status and headers, then its body piped as it comes (a stream ends with the connection). */
export function sendWebResponse(response: Response, outgoing: http.ServerResponse): void {
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void outgoing.end();
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  outgoing.on("close", () => body.destroy());
  body.pipe(outgoing);
}
