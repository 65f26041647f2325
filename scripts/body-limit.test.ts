import http from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough, Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyLimitHeader, bodyLimitOf, bodyLimitRules, defaultBodyLimit } from "@/server/http/body-limits";
import { inventoryBodyLimit, rankTableBodyLimit } from "@/db/schema/rank-table/constants";

/** What the route handler saw: the stamped limit and how many body bytes reached it. */
interface Seen {
  stamp: string | undefined;
  bytes: number;
}

let server: http.Server;
/** The server's end of the last connection answered at once. */
let answeredSocket: import("node:net").Socket | undefined;
let base: string;

beforeAll(async () => {
  // The preload, as scripts/serve.ts loads it into the server process (it patches node:http's Server here).
  process.env.RANKSCOPE_BODY_LIMITS = JSON.stringify({ ...bodyLimitRules(), default: 1024 });
  await import(pathToFileURL("scripts/body-limit.mjs").href);
  server = http.createServer((request, response) => {
    // Like Next.js answering a 405 or a 401: the body is piped into a stream nobody reads, and the answer goes at once.
    if (request.url === "/api/v1/rank-tables/answered-at-once") {
      request.pipe(new PassThrough());
      response.statusCode = 405;
      answeredSocket = request.socket;
      return void response.end("{}");
    }
    // Like Next.js: reads the whole body before answering.
    let bytes = 0;
    request.on("data", (chunk: Buffer) => (bytes += chunk.length));
    request.on("end", () => {
      // And like Next.js once a body has ended: its own (ended) buffered stream's methods are copied onto the request.
      const buffered = new Readable({ read() {} });
      buffered.push(null);
      request.push = buffered.push.bind(buffered);
      const seen: Seen = { stamp: request.headers[bodyLimitHeader] as string | undefined, bytes };
      // The route handler takes a moment (the body keeps arriving meanwhile).
      setTimeout(() => {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify(seen));
      }, 50);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Sends `size` bytes (with Content-Length, or chunked in 16 KiB pieces) and returns what the handler saw. */
function send(path: string, size: number, chunked: boolean, extraHeaders: Record<string, string> = {}, pauseMs = 0): Promise<{ status: number; seen: Seen }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...extraHeaders, ...(chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(size) }) };
    const request = http.request(`${base}${path}`, { method: "POST", headers, agent: false }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, seen: JSON.parse(text) as Seen }));
    });
    request.on("error", reject);
    const piece = Buffer.alloc(16 * 1024, 0x20);
    let left = size;
    const write = () => {
      while (left > 0) {
        const part = piece.subarray(0, Math.min(left, piece.length));
        left -= part.length;
        if (pauseMs) return void (request.write(part), setTimeout(write, pauseMs));
        if (!request.write(part)) return void request.once("drain", write);
      }
      request.end();
    };
    write();
  });
}

/** Sends `size` bytes chunked (Connection: close), `pauseMs` between pieces; the status and whether the server's end was open when the answer had arrived, or the error that ended the request. */
function answerTo(path: string, size: number, pauseMs: number): Promise<{ status: number; serverOpen: boolean } | { error: string }> {
  return new Promise((resolve) => {
    const request = http.request(`${base}${path}`, { method: "PUT", headers: { "transfer-encoding": "chunked" }, agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, serverOpen: answeredSocket?.destroyed === false }));
    });
    request.on("error", (error) => resolve({ error: error.message }));
    const piece = Buffer.alloc(64 * 1024, 0x20);
    let left = size;
    const write = () => {
      if (request.destroyed) return;
      if (left <= 0) return void request.end();
      left -= piece.length;
      if (request.write(piece)) setTimeout(write, pauseMs);
      else request.once("drain", write);
    };
    write();
  });
}

describe("the body-limit preload", () => {
  it("passes a body within the route's limit whole, and stamps the limit over what the client sent", async () => {
    expect(await send("/api/v1/tokens", 1000, false, { [bodyLimitHeader]: "999999999" })).toEqual({ status: 200, seen: { stamp: "1024", bytes: 1000 } });
    expect(await send("/api/v1/tokens", 1024, true)).toEqual({ status: 200, seen: { stamp: "1024", bytes: 1024 } });
  });

  it("ends a body declared larger than the limit at once, and one sent chunked one byte past it; the rest is dropped and the answer still arrives", async () => {
    expect(await send("/api/v1/tokens", 5 * 1024 * 1024, false)).toEqual({ status: 200, seen: { stamp: "1024", bytes: 0 } });
    expect(await send("/api/v1/tokens", 5 * 1024 * 1024, true)).toEqual({ status: 200, seen: { stamp: "1024", bytes: 1025 } });
  });

  it("drops what arrives after the handler has read the cut body (Next.js has put its own stream's push on the request by then)", async () => {
    expect(await send("/api/v1/tokens", 200 * 1024, true, {}, 10)).toEqual({ status: 200, seen: { stamp: "1024", bytes: 1025 } });
  });

  it("applies each route's own limit by method, static segments before [id], and leaves pages alone", async () => {
    expect((await send("/api/v1/rank-tables/validate", 4096, true)).seen).toEqual({ stamp: String(rankTableBodyLimit), bytes: 4096 });
    expect((await send("/api/v1/rank-tables/7", 4096, true)).seen).toEqual({ stamp: "1024", bytes: 1025 });
    expect((await send("/rank-tables", 4096, true)).seen).toEqual({ stamp: undefined, bytes: 4096 });
  });

  it("keeps the connection open after an answer given before the body was read, so a client still sending reads the answer instead of failing its write (EPIPE)", async () => {
    // PUT /rank-tables/[id] takes 128 MiB, so 8 MiB is within the limit: the bound never ends it. Connection: close,
    // so Node would close the socket as soon as the answer is written.
    // When the client has the whole answer (and, answered Connection: close, ends its side), the server's end is still open.
    expect(await answerTo("/api/v1/rank-tables/answered-at-once", 8 * 1024 * 1024, 5)).toEqual({ status: 405, serverOpen: true });
  });

  it("keeps the connection usable after a cut body", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = (size: number) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request(`${base}/api/v1/tokens`, { method: "POST", agent, headers: { "transfer-encoding": "chunked" } }, (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode ?? 0));
        });
        request.on("error", reject);
        request.end(Buffer.alloc(size, 0x20));
      });
    expect(await post(200_000)).toBe(200);
    expect(await post(10)).toBe(200);
    agent.destroy();
  });
});

describe("bodyLimitOf", () => {
  it("gives the large limits to the routes that take large bodies and the default to the rest", () => {
    expect(bodyLimitOf("POST", "/api/v1/rank-tables")).toBe(rankTableBodyLimit);
    expect(bodyLimitOf("PUT", "/api/v1/rank-tables/3")).toBe(rankTableBodyLimit);
    expect(bodyLimitOf("PATCH", "/api/v1/rank-tables/3")).toBe(defaultBodyLimit);
    expect(bodyLimitOf("POST", "/api/v1/rank-tables/validate")).toBe(rankTableBodyLimit);
    expect(rankTableBodyLimit).toBe(128 * 1024 * 1024);
    expect(bodyLimitOf("POST", "/api/v1/clusters/a3/inventory/preview")).toBe(inventoryBodyLimit);
    expect(bodyLimitOf("POST", "/api/v1/jobs")).toBe(inventoryBodyLimit);
    expect(inventoryBodyLimit).toBe(32 * 1024 * 1024);
    expect(bodyLimitOf("POST", "/api/v1/audit")).toBe(defaultBodyLimit);
  });
});
