import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { toReadableStream } from "./byte-reader";
import { multipartBoundary, multipartParts } from "./multipart";
import { tarEntries } from "./tar";
import { feedLogs, limited } from "./log-files";

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

function tarOf(files: { path: string; text: string }[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const file of files) {
    const data = encoder.encode(file.text);
    const header = new Uint8Array(512);
    const put = (value: string, offset: number) => header.set(encoder.encode(value), offset);
    if (file.path.length > 100) {
      // GNU long name: a "././@LongLink" entry of type L carries the path.
      const long = encoder.encode(`${file.path}\0`);
      const lh = new Uint8Array(512);
      lh.set(encoder.encode("././@LongLink"), 0);
      lh.set(encoder.encode(long.length.toString(8).padStart(11, "0")), 124);
      lh[156] = "L".charCodeAt(0);
      blocks.push(lh, long, new Uint8Array((512 - (long.length % 512)) % 512));
      put(file.path.slice(0, 100), 0);
    } else put(file.path, 0);
    put(data.length.toString(8).padStart(11, "0"), 124);
    header[156] = "0".charCodeAt(0);
    blocks.push(header, data, new Uint8Array((512 - (data.length % 512)) % 512));
  }
  blocks.push(new Uint8Array(1024));
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
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

describe("tarEntries", () => {
  it("reads the files of a .tar.gz one after another, long names included", async () => {
    const long = `${"node-with-a-long-directory-name/".repeat(4)}plog-7.log`;
    const archive = gzipSync(tarOf([{ path: "node0/plog-1.log", text: "a\nb\n" }, { path: long, text: "x".repeat(1500) }]));
    const stream = toReadableStream(chunked(archive, 100)).pipeThrough(new DecompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
    const seen: [string, number][] = [];
    for await (const entry of tarEntries(stream)) seen.push([entry.path, (await text(entry.data)).length]);
    expect(seen).toEqual([
      ["node0/plog-1.log", 4],
      [long, 1500],
    ]);
  });
});

describe("feedLogs", () => {
  it("feeds each file of a multipart form (a .tar.gz of node directories and pasted text) to the sink, and stops at the limit", async () => {
    const boundary = "xYz";
    const archive = gzipSync(tarOf([{ path: "node0/plog-1.log", text: "EI0006 a\n" }, { path: "node1/plog-2.log", text: "EI0002 b\n" }]));
    const head = encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="logs.tar.gz"\r\nContent-Type: application/gzip\r\n\r\n`);
    const tail = encoder.encode(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\npasted line\r\n--${boundary}--\r\n`);
    const body = new Uint8Array([...head, ...archive, ...tail]);
    const seen: Record<string, string> = {};
    let current = "";
    const sink = { addFile: (path: string) => void (seen[(current = path)] = ""), addChunk: (text: string) => void (seen[current] += text) };
    const counter = { bytes: 0 };
    expect(await feedLogs(limited(chunked(body, 33), 1_000_000, counter), `multipart/form-data; boundary=${boundary}`, "upload", sink)).toBe(3);
    expect(seen).toEqual({ "node0/plog-1.log": "EI0006 a\n", "node1/plog-2.log": "EI0002 b\n", "text.txt": "pasted line" });
    expect(counter.bytes).toBe(body.length);
    await expect(feedLogs(limited(chunked(body, 33), 100, { bytes: 0 }), `multipart/form-data; boundary=${boundary}`, "upload", sink)).rejects.toMatchObject({ kind: "too_large" });
  });
});
