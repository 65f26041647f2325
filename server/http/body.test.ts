import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readBytes, readJson } from "./body";
import { bodyLimitHeader } from "./body-limits";
import { ApiError } from "./errors";

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://localhost/api/v1/x", { method: "POST", body, headers: { "content-type": "application/json", ...headers }, duplex: "half" } as RequestInit);

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  return { status: (error as ApiError).status, code: (error as ApiError).code };
}

describe("readJson", () => {
  it("refuses invalid UTF-8 (400) instead of storing replacement characters", async () => {
    const bytes = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28, 0xed, 0xa0, 0x80, 0xff]), Buffer.from('"}')]);
    expect(await refusal(readJson(post(bytes), z.object({ name: z.string() })))).toEqual({ status: 400, code: "invalid_utf8" });
    expect(await readJson(post('{"name":"数据"}'), z.object({ name: z.string() }))).toEqual({ name: "数据" });
  });
});

describe("readBytes", () => {
  it("never reads past the limit the server's preload stamped, even when the route allows more (a cut body is a 413)", async () => {
    const stamped = { [bodyLimitHeader]: "10" };
    expect(await refusal(readBytes(post("x".repeat(11), stamped), 1000))).toEqual({ status: 413, code: "payload_too_large" });
    expect((await readBytes(post("x".repeat(10), stamped), 1000)).byteLength).toBe(10);
    expect(await refusal(readBytes(post("x".repeat(11)), 10))).toEqual({ status: 413, code: "payload_too_large" });
  });
});

describe("readBytes into one buffer", () => {
  /** A body that arrives in `parts` chunks, as a socket delivers it. */
  const streamed = (parts: Uint8Array[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
  const parts = [Buffer.from("a".repeat(5000)), Buffer.from("b".repeat(7000)), Buffer.from("c".repeat(3))];
  const whole = Buffer.concat(parts);

  it("gives the body's bytes in order, in a buffer of their own that can be transferred to a worker, with or without a declared length", async () => {
    for (const headers of [{ "content-length": String(whole.byteLength) }, {}] as Record<string, string>[]) {
      const bytes = await readBytes(post(streamed(parts), headers), 1_000_000);
      expect(Buffer.from(bytes).equals(whole)).toBe(true);
      expect([bytes.byteOffset, bytes.buffer.byteLength]).toEqual([0, whole.byteLength]);
    }
  });

  it("refuses a body longer than it declared, or than the limit while it streams (413)", async () => {
    expect(await refusal(readBytes(post(streamed(parts), { "content-length": "5000" }), 1_000_000))).toEqual({ status: 413, code: "payload_too_large" });
    expect(await refusal(readBytes(post(streamed(parts)), 12_000))).toEqual({ status: 413, code: "payload_too_large" });
  });
});

describe("reading a body", () => {
  it("gives the event loop's other tasks turns while a body that is all there already is read (a fast sender on loopback)", async () => {
    let delivered = 0;
    const count = 60;
    // Each chunk costs 1 ms of this thread, as a socket read's copies do; all of them are there at once.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const until = performance.now() + 1;
        while (performance.now() < until);
        controller.enqueue(new Uint8Array(1024));
        if (++delivered === count) controller.close();
      },
    });
    let deliveredWhenOthersRan: number | undefined;
    setImmediate(() => (deliveredWhenOthersRan = delivered));
    expect((await readBytes(post(body), 1_000_000)).byteLength).toBe(count * 1024);
    expect(deliveredWhenOthersRan).toBeLessThan(count);
  });
});
