/**
 * The ingestion bench's server: POST /api/v1/fault-events's real route handler (token check, rate limit, body
 * limit, JSON parse, validation, ingestion, response) behind a plain node:http server, so the bench's requests
 * cross a socket as a feeder's would. Next's own request routing is left out (it costs the same per request
 * whatever the batch holds); building the app for it would take minutes on this machine.
 *
 * Run by scripts/bench/fault-ingest.ts as `node --conditions=react-server --import tsx <this file>` (the condition
 * lets `server-only` modules load outside Next) with DATABASE_URL and PORT; prints `listening` when ready.
 */
import http from "node:http";
import { POST } from "@/app/api/v1/fault-events/route";
import { sendWebResponse, webRequestOf } from "../web-requests";

const none = { params: Promise.resolve({}) };

const server = http.createServer((incoming, outgoing) => {
  const chunks: Buffer[] = [];
  incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
  incoming.on("end", () => {
    void (async () => {
      const request = webRequestOf(incoming, incoming.method === "POST" ? Buffer.concat(chunks) : undefined);
      const response = incoming.method === "POST" && request.url.includes("/api/v1/fault-events") ? await POST(request, none) : new Response("not found", { status: 404 });
      sendWebResponse(response, outgoing);
    })().catch((error: unknown) => {
      outgoing.writeHead(500).end(String(error));
    });
  });
});

server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
