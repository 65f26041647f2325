import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let server: http.Server;
let base: string;
let handled: string[] = [];
let preload: { maxParameters: number; parameterCount: (url: string, bound?: number) => number };

beforeAll(async () => {
  // The preload, as scripts/serve.ts loads it into the server process (it patches node:http's Server here).
  preload = await import(pathToFileURL("scripts/query-limit.mjs").href);
  server = http.createServer((request, response) => {
    handled.push(request.url!);
    response.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const repeated = (count: number) => new Array(count).fill("kind=roce-link-down").join("&");

describe("query-limit preload", () => {
  it("counts parameters as URLSearchParams finds them (empty parts are none, repeats each one)", () => {
    for (const url of ["/x", "/x?", "/x?a=1", "/x?a=1&a=2&&b", "/x?&&a&", `/x?${repeated(300)}`]) {
      expect(preload.parameterCount(url, 1000)).toBe([...new URLSearchParams(url.split("?")[1] ?? "")].length);
    }
  });

  it("refuses a query of more than 256 parameters with 414 in the error shape before the server's handler, and passes the others on", async () => {
    handled = [];
    const over = await fetch(`${base}/api/v1/fault-events?${repeated(preload.maxParameters + 1)}`, { method: "POST", body: "x".repeat(100_000) });
    expect(over.status).toBe(414);
    expect(over.headers.get("content-type")).toContain("application/json");
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe("too_many_parameters");
    const within = await fetch(`${base}/rank-tables?${repeated(preload.maxParameters)}`);
    expect(within.status).toBe(200);
    expect(handled).toEqual([`/rank-tables?${repeated(preload.maxParameters)}`]);
  });
});
