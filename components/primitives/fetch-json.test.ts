import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { jsonOf } from "./fetch-json";

const value = { events: [{ id: "1", message: "link down · 链路断开" }], total: 1 };

describe("jsonOf", () => {
  it("decodes an answer sent as a gzip file before parsing it", async () => {
    const response = new Response(new Uint8Array(gzipSync(JSON.stringify(value))), { headers: { "content-type": "application/gzip" } });
    expect(await jsonOf(response)).toEqual(value);
  });

  it("parses a plain JSON answer as it is", async () => {
    const response = new Response(JSON.stringify(value), { headers: { "content-type": "application/json" } });
    expect(await jsonOf(response)).toEqual(value);
  });

  it("fails on a gzip file that does not hold JSON", async () => {
    const response = new Response(new Uint8Array(gzipSync("not json")), { headers: { "content-type": "application/gzip" } });
    await expect(jsonOf(response)).rejects.toThrow();
  });
});
