import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateA5Table, writeRankTable, type JsonValue } from "@/lib/rank-table";
import { HOSTED_FROM_ROWS } from "@/lib/rank-table-workspace/table-host";
import { answerHosted, dropHostedTable, hostedTable, openFile, type HostedAnswer } from "./hosted-table";
import { JsonCompactor } from "@/lib/rank-table/compact-json";
import { sourceBytes } from "./source-text";
import { sendBytes } from "./text-port";

/**
 * A saved revision's text opened in the worker from GET …/text (issue 21: a revision too long for the page): the
 * worker fetches it and parses the body as it arrives, as it reads a file, and keeps the table.
 */
const table = generateA5Table({ racks: HOSTED_FROM_ROWS / 64, npusPerRack: 64 }) as unknown as JsonValue;
const text = writeRankTable(table);

/** The text as a response body of 64 KiB chunks, and how many of them were read. */
function answered(body: string) {
  const bytes = new TextEncoder().encode(body);
  const read = { chunks: 0 };
  let at = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= bytes.byteLength) return controller.close();
        read.chunks++;
        controller.enqueue(bytes.slice(at, (at += 65_536)));
      },
    },
    { highWaterMark: 0 },
  );
  return { response: new Response(stream, { headers: { "content-type": "application/json" } }), read };
}

async function open(source: Parameters<typeof openFile>[0]["source"]) {
  const answers: HostedAnswer[] = [];
  const small = vi.fn();
  await openFile({ type: "open", seq: 1, source, lang: "en" }, (answer) => answers.push(answer), small);
  return { answers, small };
}

afterEach(() => {
  vi.unstubAllGlobals();
  dropHostedTable();
});

describe("openFile from a saved revision's text", () => {
  it("fetches the URL and parses the body as it arrives into a table the worker keeps; its rows are answered from it", { timeout: 60_000 }, async () => {
    const { response, read } = answered(text);
    const fetch = vi.fn(async () => response);
    vi.stubGlobal("fetch", fetch);
    const { answers, small } = await open({ url: "/api/v1/rank-tables/7/text?revision=3", bytes: new TextEncoder().encode(text).byteLength });
    expect(fetch).toHaveBeenCalledWith("/api/v1/rank-tables/7/text?revision=3", expect.anything());
    expect(read.chunks).toBeGreaterThan(100);
    expect(small).not.toHaveBeenCalled();
    const hosted = answers.find((answer) => answer.type === "hosted");
    expect(hosted).toMatchObject({ summary: { rows: HOSTED_FROM_ROWS, rankList: true } });
    for (const answer of answers.filter((entry) => entry.type === "progress")) expect(answer.percent).toBeLessThanOrEqual(100);
    const rows: HostedAnswer[] = [];
    answerHosted({ type: "rows", seq: 2, node: undefined, from: 0, to: 2 }, (answer) => rows.push(answer));
    expect(rows[0]).toMatchObject({ type: "rows", total: HOSTED_FROM_ROWS, rows: [{ rank: 0 }, { rank: 1 }] });
  });

  it("decodes a revision the server sends as stored, gzipped (Content-Type application/gzip), as it arrives", { timeout: 60_000 }, async () => {
    const gzipped = gzipSync(text);
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      expect((init.headers as Record<string, string>).accept).toMatch(/^application\/gzip\b/);
      return new Response(new Blob([gzipped]).stream(), { headers: { "content-type": "application/gzip" } });
    });
    const { answers } = await open({ url: "/api/v1/rank-tables/7/text", bytes: Buffer.byteLength(text) });
    expect(answers.at(-1)).toMatchObject({ type: "hosted", summary: { rows: HOSTED_FROM_ROWS } });
  });

  it("answers failed when the server does not answer the text (a revision deleted meanwhile, a session gone)", async () => {
    vi.stubGlobal("fetch", async () => Response.json({ error: { code: "not_found" } }, { status: 404 }));
    const { answers } = await open({ url: "/api/v1/rank-tables/7/text?revision=3", bytes: 1000 });
    expect(answers).toEqual([{ type: "failed", seq: 1, message: "/api/v1/rank-tables/7/text?revision=3 answered 404" }]);
  });

  it("answers notJson for a body cut short", async () => {
    vi.stubGlobal("fetch", async () => answered(text.slice(0, 100_000)).response);
    const { answers } = await open({ url: "/api/v1/rank-tables/7/text", bytes: text.length });
    expect(answers.at(-1)).toMatchObject({ type: "notJson" });
  });
});

describe("openFile from the text reader's port", () => {
  it("parses the bytes the reader sends (a gzipped revision it fetched, decompressed and compacted) into the table the worker keeps", { timeout: 60_000 }, async () => {
    vi.stubGlobal("fetch", async () => new Response(new Blob([gzipSync(text)]).stream(), { headers: { "content-type": "application/gzip" } }));
    const { port1, port2 } = new MessageChannel();
    // As text-reader.worker.ts sends them, but holding less: some pieces compacted, some not.
    void sendBytes(sourceBytes({ url: "/api/v1/rank-tables/7/text", bytes: Buffer.byteLength(text) }), port1, 1 << 20, new JsonCompactor());
    const { answers, small } = await open({ port: port2 });
    expect(small).not.toHaveBeenCalled();
    expect(answers.filter((answer) => answer.type === "progress").length).toBeGreaterThan(0);
    expect(answers.at(-1)).toMatchObject({ type: "hosted", summary: { rows: HOSTED_FROM_ROWS, rankList: true } });
    expect(hostedTable()?.table).toEqual(table);
    const rows: HostedAnswer[] = [];
    answerHosted({ type: "rows", seq: 2, node: undefined, from: HOSTED_FROM_ROWS - 1, to: HOSTED_FROM_ROWS }, (answer) => rows.push(answer));
    expect(rows[0]).toMatchObject({ type: "rows", total: HOSTED_FROM_ROWS, rows: [{ rank: HOSTED_FROM_ROWS - 1 }] });
    port1.close();
  });

  it("answers failed with the reader's error, and when the page says the reader was lost", async () => {
    vi.stubGlobal("fetch", async () => Response.json({ error: { code: "not_found" } }, { status: 404 }));
    const first = new MessageChannel();
    void sendBytes(sourceBytes({ url: "/api/v1/rank-tables/7/text", bytes: 1000 }), first.port1);
    expect((await open({ port: first.port2 })).answers).toEqual([{ type: "failed", seq: 1, message: "/api/v1/rank-tables/7/text answered 404" }]);
    first.port1.close();
    // A reader that never sends: the open waits until the page says it is gone.
    const lost = new MessageChannel();
    const opened = open({ port: lost.port2 });
    answerHosted({ type: "readerLost", seq: 1, message: "the text reader failed" }, () => undefined);
    expect((await opened).answers).toEqual([{ type: "failed", seq: 1, message: "the text reader failed" }]);
    lost.port1.close();
  });
});
