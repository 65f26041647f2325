import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";

let server: http.Server;
let base: string;
/** When the server saw each response close, by path, ms after the start of the test. */
const closedAt = new Map<string, number>();

beforeAll(async () => {
  // The preload, as scripts/serve.ts loads it into the server process (it patches node:http's Server here).
  process.env.RANKSCOPE_SSE_STALL_SECONDS = "1";
  await import(pathToFileURL("scripts/stalled-streams.mjs").href);
  server = http.createServer((request, response) => {
    // Like an event stream under a flood: 64 KB every 20 ms, written whether or not the client keeps up.
    response.writeHead(200, { "content-type": "text/event-stream" });
    const path = request.url!;
    const paced = path.includes("paced");
    const chunk = Buffer.alloc(paced ? 100 : 65536, 120);
    const timer = setInterval(() => response.write(chunk), paced ? 300 : 20);
    response.on("close", () => {
      clearInterval(timer);
      closedAt.set(path, performance.now());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const open = (path: string, read: boolean) =>
  new Promise<http.ClientRequest>((resolve) => {
    const request = http.get(`${base}${path}`, { agent: false }, (response) => {
      if (read) response.resume();
      else response.pause();
      resolve(request);
    });
  });

it("closes an event stream's connection once its client has taken nothing for RANKSCOPE_SSE_STALL_SECONDS, and leaves readers and other routes alone", async () => {
  const started = performance.now();
  const clients = [
    await open("/api/v1/events?cluster=x", false),
    await open("/api/v1/events?paced=1", true),
    await open("/api/v1/other", false),
  ];
  try {
    await expect.poll(() => closedAt.has("/api/v1/events?cluster=x"), { timeout: 20_000, interval: 100 }).toBe(true);
    // It stalled once the kernel's buffers were full, then one quiet second went by.
    expect(closedAt.get("/api/v1/events?cluster=x")! - started).toBeGreaterThan(1000);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(closedAt.has("/api/v1/events?paced=1")).toBe(false);
    expect(closedAt.has("/api/v1/other")).toBe(false);
  } finally {
    for (const client of clients) client.destroy();
  }
});
