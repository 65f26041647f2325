/**
 * The fault-injection suite's app process: every API route handler behind proxy.ts, served by a plain node:http
 * server, as `next start` would run them but without a build (minutes on this machine). Requests go through the
 * proxy (the central permission check, 405s, 503s) and then the route handler found by lib/auth/api-methods.ts,
 * with the peer-address stamp of scripts/peer-address.mjs (loaded with --import). Streams are piped as they come.
 *
 * Run by scripts/fault-injection/run.ts as
 * `node --import ./scripts/peer-address.mjs --conditions=react-server --import tsx <this file>` with DATABASE_URL
 * and PORT; prints `listening` when ready.
 */
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { NextRequest } from "next/server";
import { apiMethods } from "@/lib/auth/api-methods";
import { proxy } from "@/proxy";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

const routes = Object.keys(apiMethods)
  .sort((a, b) => Number(a.includes("[")) - Number(b.includes("[")))
  .map((pattern) => ({
    pattern,
    names: [...pattern.matchAll(/\[(\w+)\]/g)].map((m) => m[1]!),
    regex: new RegExp(`^${pattern.replace(/\[\w+\]/g, "([^/]+)")}/?$`),
  }));
const modules = new Map<string, Promise<Record<string, unknown>>>();

async function handlerFor(pathname: string, method: string): Promise<{ handler: Handler; params: Record<string, string> } | undefined> {
  for (const route of routes) {
    const match = route.regex.exec(pathname);
    if (!match) continue;
    const file = path.resolve("app", `.${route.pattern}`, "route.ts");
    if (!modules.has(file)) modules.set(file, import(/* @vite-ignore */ file) as Promise<Record<string, unknown>>);
    const handler = (await modules.get(file)!)[method === "HEAD" ? "GET" : method];
    if (typeof handler !== "function") return undefined;
    return { handler: handler as Handler, params: Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)])) };
  }
  return undefined;
}

async function send(response: Response, outgoing: http.ServerResponse): Promise<void> {
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void outgoing.end();
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  outgoing.on("close", () => body.destroy());
  body.pipe(outgoing);
}

const server = http.createServer((incoming, outgoing) => {
  const chunks: Buffer[] = [];
  incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
  incoming.on("end", () => {
    void (async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
      const url = `http://${incoming.headers.host ?? "localhost"}${incoming.url ?? "/"}`;
      const body = incoming.method === "GET" || incoming.method === "HEAD" ? undefined : Buffer.concat(chunks);
      const init = { method: incoming.method, headers, body };
      const abort = new AbortController();
      outgoing.on("close", () => abort.abort());
      const checked = await proxy(new NextRequest(url, init));
      if (checked.headers.get("x-middleware-next") !== "1") return send(checked, outgoing);
      const found = await handlerFor(new URL(url).pathname, incoming.method ?? "GET");
      if (!found) return send(Response.json({ error: { code: "not_found", message: "no such route" } }, { status: 404 }), outgoing);
      return send(await found.handler(new Request(url, { ...init, signal: abort.signal }), { params: Promise.resolve(found.params) }), outgoing);
    })().catch((error: unknown) => {
      console.error(error);
      if (!outgoing.headersSent) outgoing.writeHead(500);
      outgoing.end();
    });
  });
});

// Load every route module before listening, as a started server has: the kills below should hit work, not imports.
for (const pattern of Object.keys(apiMethods)) await handlerFor(pattern.replace(/\[\w+\]/g, "x"), apiMethods[pattern]![0]!);
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
