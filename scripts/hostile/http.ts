import http from "node:http";
import { Worker } from "node:worker_threads";

export interface Answer {
  status: number;
  contentType: string;
  /** The first MB of the body (more is counted in `size`, not kept). */
  text: string;
  size: number;
  ms: number;
  /** Set when no answer came in time or the connection failed. */
  failure?: string;
}

/** One request with full control over the body: Content-Length, chunked (none), any bytes. */
export function send(
  base: string,
  request: { method: string; path: string; headers?: Record<string, string>; body?: Buffer; chunked?: Buffer[] },
  timeoutMs: number,
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers["content-length"] = String(request.body.length);
    if (request.chunked !== undefined) headers["transfer-encoding"] = "chunked";
    const outgoing = http.request(`${base}${request.path}`, { method: request.method, headers, agent: false });
    const finish = (answer: Omit<Answer, "ms">) => {
      clearTimeout(timer);
      resolve({ ...answer, ms: performance.now() - started });
    };
    const timer = setTimeout(() => {
      outgoing.destroy();
      finish({ status: 0, contentType: "", text: "", size: 0, failure: `no answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    outgoing.on("response", (response) => {
      const kept: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        if (size < 1024 * 1024) kept.push(chunk);
        size += chunk.length;
      });
      response.on("end", () => finish({ status: response.statusCode ?? 0, contentType: String(response.headers["content-type"] ?? ""), text: Buffer.concat(kept).toString("utf8"), size }));
      response.on("error", (error) => finish({ status: response.statusCode ?? 0, contentType: "", text: "", size, failure: error.message }));
    });
    // A connection that fails before the answer (EPIPE while the body is still being sent) is a failure: the server
    // answers a body it will not read (413, 405) and keeps the connection until the client has read that answer
    // (the lingering close of scripts/body-limit.mjs).
    outgoing.on("error", (error) => finish({ status: 0, contentType: "", text: "", size: 0, failure: error.message }));
    if (request.chunked) {
      const chunks = request.chunked;
      const writeNext = (index: number) => {
        if (index >= chunks.length) return void outgoing.end();
        if (outgoing.destroyed) return;
        if (outgoing.write(chunks[index]!)) setImmediate(() => writeNext(index + 1));
        else outgoing.once("drain", () => writeNext(index + 1));
      };
      writeNext(0);
    } else {
      outgoing.end(request.body);
    }
  });
}

/** True when the answer is in the API's error shape: {"error":{"code","message",…}}. */
export function isErrorShape(answer: Answer): boolean {
  if (!answer.contentType.includes("application/json")) return false;
  try {
    const body = JSON.parse(answer.text) as { error?: { code?: unknown; message?: unknown } };
    return typeof body.error?.code === "string" && typeof body.error.message === "string";
  } catch {
    return false;
  }
}

/**
 * Polls GET /api/health from a thread of its own (so the attacker's own work never delays a poll) every
 * `intervalMs`, and reports how many polls answered, the slowest, and how many took `limitMs` or more.
 */
export interface HealthFigures {
  polls: number;
  maxMs: number;
  slow: number;
  failed: number;
  /** When each slow poll started and how long it took (epoch ms), to name the requests it overlapped. */
  slowPolls: { at: number; ms: number }[];
}

export function healthProbe(base: string, limitMs: number, intervalMs = 50): { stop: () => Promise<HealthFigures> } {
  const code = `
    const { parentPort, workerData } = require("node:worker_threads");
    const http = require("node:http");
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let polls = 0, maxMs = 0, slow = 0, failed = 0, running = true;
    const slowPolls = [];
    const poll = () => new Promise((resolve) => {
      const started = performance.now();
      const at = Date.now();
      const request = http.get(workerData.base + "/api/health", { agent }, (response) => {
        response.resume();
        response.on("end", () => {
          const ms = performance.now() - started;
          polls++; maxMs = Math.max(maxMs, ms);
          if (ms >= workerData.limitMs) { slow++; slowPolls.push({ at, ms }); }
          if (response.statusCode !== 200) failed++;
          resolve();
        });
      });
      request.on("error", () => { failed++; resolve(); });
    });
    (async () => {
      while (running) {
        await poll();
        await new Promise((resolve) => setTimeout(resolve, workerData.intervalMs));
      }
      parentPort.postMessage({ polls, maxMs, slow, failed, slowPolls });
    })();
    parentPort.on("message", () => { running = false; });
  `;
  const worker = new Worker(code, { eval: true, workerData: { base, limitMs, intervalMs } });
  return {
    stop: () =>
      new Promise((resolve) => {
        worker.once("message", (figures) => {
          void worker.terminate();
          resolve(figures);
        });
        worker.postMessage("stop");
      }),
  };
}
