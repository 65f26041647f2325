/**
 * The fault-injection suite's app process: every API route handler behind proxy.ts, served by a plain node:http
 * server, as `next start` would run them but without a build (minutes on this machine). Requests the proxy's
 * `config.matcher` takes (test/proxy-matcher.ts decides as Next.js does) have their bodies buffered and go through
 * the proxy (the central permission check, 405s, 503s) and then the route handler found by lib/auth/api-methods.ts;
 * the others (bodies to the streamed routes) stream to their handler. The server's preloads (peer address, body
 * limits) are loaded as scripts/serve.ts loads them (scripts/server-node-flags.ts). Streams are piped as they come.
 *
 * Started by scripts/fault-injection/harness.ts (startApp) as `node --conditions=react-server --import tsx <this file>` with
 * serverPreloadEnv(), DATABASE_URL and PORT; prints `listening` when ready.
 */
// First, as `next start` does: AsyncLocalStorage on globalThis, which next/server and the proxy matcher's compiler need.
import "next/dist/server/node-environment-baseline";
import http from "node:http";
import path from "node:path";
import { NextRequest } from "next/server";
import { apiMethods } from "@/lib/auth/api-methods";
import { proxy } from "@/proxy";
import { passesProxy } from "@/test/proxy-matcher";
import { sendWebResponse, streamedBody, webRequestOf } from "../web-requests";

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

async function answer(incoming: http.IncomingMessage, outgoing: http.ServerResponse): Promise<void> {
  const abort = new AbortController();
  outgoing.on("close", () => abort.abort());
  const pathname = new URL(incoming.url ?? "/", "http://localhost").pathname;
  const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD";
  let request: Request;
  if (passesProxy(pathname, incoming.headers)) {
    // As Next.js does for the proxy: the whole body first.
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = hasBody ? Buffer.concat(chunks) : undefined;
    const checked = await proxy(new NextRequest(webRequestOf(incoming, body)));
    if (checked.headers.get("x-middleware-next") !== "1") return sendWebResponse(checked, outgoing);
    request = webRequestOf(incoming, body, abort.signal);
  } else {
    request = webRequestOf(incoming, hasBody ? streamedBody(incoming) : undefined, abort.signal);
  }
  const found = await handlerFor(pathname, incoming.method ?? "GET");
  if (!found) return sendWebResponse(Response.json({ error: { code: "not_found", message: "no such route" } }, { status: 404 }), outgoing);
  return sendWebResponse(await found.handler(request, { params: Promise.resolve(found.params) }), outgoing);
}

const server = http.createServer((incoming, outgoing) => {
  answer(incoming, outgoing).catch((error: unknown) => {
    console.error(error);
    if (!outgoing.headersSent) outgoing.writeHead(500);
    outgoing.end();
  });
});

// Load every route module before listening, as a started server has: the kills below should hit work, not imports.
for (const pattern of Object.keys(apiMethods)) await handlerFor(pattern.replace(/\[\w+\]/g, "x"), apiMethods[pattern]![0]!);
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
