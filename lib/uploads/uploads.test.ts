import { describe, expect, it } from "vitest";
import { multipartBoundary, multipartParts } from "./multipart";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The bytes in chunks of `size`, as a network delivers them. */
async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

async function text(data: AsyncIterable<Uint8Array>): Promise<string> {
  let out = "";
  for await (const chunk of data) out += decoder.decode(chunk, { stream: true });
  return out;
}

describe("multipartParts", () => {
  it("streams each part with its name and file name, whatever the chunking", async () => {
    const boundary = "----rankscope7MA4YWxkTrZu0gW";
    const body = encoder.encode(
      `preamble\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="node0/plog-1.log"\r\nContent-Type: text/plain\r\n\r\nline 1\r\nline 2\r\n--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\npasted --${boundary.slice(0, 5)}\r\n--${boundary}--\r\n`,
    );
    expect(multipartBoundary(`multipart/form-data; boundary=${boundary}`)).toBe(boundary);
    for (const size of [1, 7, 64, body.length]) {
      const seen: [string | null, string | null, string][] = [];
      for await (const part of multipartParts(chunked(body, size), boundary)) seen.push([part.name, part.filename, await text(part.body)]);
      expect(seen).toEqual([
        ["files", "node0/plog-1.log", "line 1\r\nline 2"],
        ["text", null, `pasted --${boundary.slice(0, 5)}`],
      ]);
    }
  });

  it("refuses a body cut short", async () => {
    const parts = multipartParts(chunked(encoder.encode('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nabc'), 4), "b");
    await expect((async () => {
      for await (const part of parts) await text(part.body);
    })()).rejects.toThrow(/ended/);
  });
});
