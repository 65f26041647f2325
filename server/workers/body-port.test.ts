import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { gatheredBody, owned, portedBody, type PortedBody } from "./body-port";

async function* chunksOf(bytes: Uint8Array, size: number, failAfter = Infinity): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += size) {
    if (at >= failAfter) throw new Error("the client went away");
    // Buffers that are views into one buffer, as a socket's chunks are: they must be copied before they are transferred.
    yield Buffer.from(bytes.buffer, bytes.byteOffset + at, Math.min(size, bytes.byteLength - at));
  }
}

const sample = (length: number) => Uint8Array.from({ length }, (_, index) => (index * 7) % 251);

/** The body gathered in a real worker thread, as the rank-table worker gathers it: the port is transferred to it. */
function gatherInWorker(body: PortedBody): Promise<Uint8Array> {
  const code = `
    const { parentPort } = require("node:worker_threads");
    const { receiveMessageOnPort } = require("node:worker_threads");
    parentPort.once("message", ({ port, byteLength }) => {
      const bytes = new Uint8Array(byteLength);
      let at = 0;
      for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) { bytes.set(m.message, at); at += m.message.byteLength; }
      parentPort.postMessage(bytes);
    });`;
  const worker = new Worker(code, { eval: true });
  return new Promise((resolve, reject) => {
    worker.once("message", (bytes: Uint8Array) => {
      void worker.terminate();
      resolve(bytes);
    });
    worker.once("error", reject);
    worker.postMessage(body, [body.port]);
  });
}

describe("portedBody", () => {
  it("keeps a body of at most keepUpTo bytes as one buffer", async () => {
    const bytes = sample(1000);
    const body = await portedBody(chunksOf(bytes, 100), 1000);
    expect(body).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(body as Uint8Array).equals(Buffer.from(bytes))).toBe(true);
  });

  it("moves a longer body to a port, leaving the source chunks intact, and the worker gets every byte in order", async () => {
    const bytes = sample(10_000);
    const body = await portedBody(chunksOf(bytes, 300), 1000);
    expect(body).not.toBeInstanceOf(Uint8Array);
    expect((body as PortedBody).byteLength).toBe(10_000);
    // Copies were transferred, not the source's own buffer.
    expect(bytes.byteLength).toBe(10_000);
    const gathered = await gatherInWorker(body as PortedBody);
    expect(Buffer.from(gathered).equals(Buffer.from(bytes))).toBe(true);
  });

  it("gatheredBody drains a port on this thread too, and a buffer comes back as it is", async () => {
    const bytes = sample(5000);
    const body = (await portedBody(chunksOf(bytes, 512), 100)) as PortedBody;
    expect(Buffer.from(gatheredBody(body)).equals(Buffer.from(bytes))).toBe(true);
    expect(gatheredBody(bytes)).toBe(bytes);
  });

  it("moves a body of several blocks whole, the last one partial", async () => {
    const bytes = sample(2 * 1024 * 1024 + 12_345);
    const body = (await portedBody(chunksOf(bytes, 64 * 1024), 256 * 1024)) as PortedBody;
    expect(Buffer.from(await gatherInWorker(body)).equals(Buffer.from(bytes))).toBe(true);
  });

  it("owned copies a Buffer that is a view of a larger one (its slice() would share the memory)", () => {
    const whole = Buffer.from(sample(1000));
    const view = whole.subarray(100, 200);
    const own = owned(view);
    expect(own.byteLength).toBe(100);
    expect(own.buffer.byteLength).toBe(100);
    expect(own.buffer).not.toBe(whole.buffer);
    expect(Buffer.from(own).equals(view)).toBe(true);
    expect(owned(own)).toBe(own);
  });

  it("passes on a read failure (a 413, a client gone) and drops what was queued", async () => {
    await expect(portedBody(chunksOf(sample(10_000), 500, 4000), 1000)).rejects.toThrow("the client went away");
  });
});
