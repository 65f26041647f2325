import { afterEach, describe, expect, it, vi } from "vitest";
import { conflictCurrent, uploadHostedTable } from "./api";

// A small limit, so that "past the JSON limit" does not need a 128 MiB Blob.
vi.mock("@/db/schema/rank-table/constants", async (original) => ({ ...(await original<object>()), rankTableBodyLimit: 200 }));

const summary = { valid: true, errors: 0, warnings: 0, infos: 0, version: "1.0", mode: "ai-server", stats: { superPods: 0, servers: 1, devices: 8 } };
const detail = (revision: number) => ({ id: 5, name: "big", clusterId: null, clusterName: null, revision, createdAt: "2026-11-27T00:00:00Z", updatedAt: "2026-11-27T00:00:00Z", updatedBy: "ann", summary, comment: "", hardwareFit: null });
const fields = { name: "big", comment: "", clusterId: null };

/** The worker's writer: the canonical text, escaped as a JSON string's inside when asked. */
function writer(text: string) {
  const write = vi.fn(async (jsonString: boolean) => new Blob([jsonString ? JSON.stringify(text).slice(1, -1) : text], { type: "application/json" }));
  return write;
}

function fakeFetch(answer: () => Response) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return answer();
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

/** The one request made: a PUT to `url` with If-Match the revision it started from; its body. */
function onePut(calls: { url: string; init: RequestInit }[], url: string, revision: number): Blob {
  expect(calls).toHaveLength(1);
  expect(calls[0]!.url).toBe(url);
  expect(calls[0]!.init.method).toBe("PUT");
  expect((calls[0]!.init.headers as Record<string, string>)["if-match"]).toBe(`"${revision}"`);
  expect(calls[0]!.init.body).toBeInstanceOf(Blob);
  return calls[0]!.init.body as Blob;
}

describe("uploadHostedTable", () => {
  it("sends a table within the JSON limit as a JSON body to PUT /rank-tables/{id}, If-Match its revision", async () => {
    const calls = fakeFetch(() => Response.json(detail(4)));
    const text = '{\n  "version": "1.0"\n}';
    const write = writer(text);
    const result = await uploadHostedTable({ id: 5, revision: 3 }, fields, write);
    expect(result).toEqual(detail(4));
    expect(JSON.parse(await onePut(calls, "/api/v1/rank-tables/5", 3).text())).toEqual({ ...fields, text });
  });

  it("sends a saved table past the JSON limit as its text, the export's Blob, to PUT /rank-tables/{id}/text with If-Match, written once and never escaped", async () => {
    const calls = fakeFetch(() => Response.json(detail(4)));
    const text = `{\n  "server_list": [${'"x",'.repeat(60)}"x"]\n}`;
    const write = writer(text);
    const result = await uploadHostedTable({ id: 5, revision: 3 }, fields, write);
    expect(result).toEqual(detail(4));
    const body = onePut(calls, "/api/v1/rank-tables/5/text?name=big", 3);
    expect(write.mock.calls).toEqual([[false]]);
    expect(body).toBe(await write.mock.results[0]!.value);
    expect(await body.text()).toBe(text);
  });

  it("sends the text when only its escaping passes the limit, written again as text", async () => {
    const calls = fakeFetch(() => Response.json(detail(4)));
    // 140 bytes of text within the limit of 200; each quote escaped makes the body 250 bytes.
    const text = '"'.repeat(110);
    const write = writer(text);
    await uploadHostedTable({ id: 5, revision: 3 }, fields, write);
    expect(write.mock.calls).toEqual([[false], [true], [false]]);
    expect(await onePut(calls, "/api/v1/rank-tables/5/text?name=big", 3).text()).toBe(text);
  });

  it("passes the name (a rename), the comment and the cluster in the query", async () => {
    const calls = fakeFetch(() => Response.json(detail(4)));
    await uploadHostedTable({ id: 5, revision: 3 }, { name: "bigger & better", comment: "more ranks", clusterId: 7 }, writer(`[${'"x",'.repeat(60)}"x"]`));
    expect(calls[0]!.url).toBe("/api/v1/rank-tables/5/text?name=bigger+%26+better&comment=more+ranks&clusterId=7");
  });

  it("creates a new table past the limit with POST /rank-tables/text, its name in the query and no If-Match", async () => {
    const calls = fakeFetch(() => Response.json(detail(1), { status: 201 }));
    const text = `[${'"x",'.repeat(60)}"x"]`;
    const result = await uploadHostedTable(undefined, fields, writer(text));
    expect(result).toEqual(detail(1));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("/api/v1/rank-tables/text?name=big");
    expect(calls[0]!.init.method).toBe("POST");
    expect((calls[0]!.init.headers as Record<string, string>)["if-match"]).toBeUndefined();
    expect(await (calls[0]!.init.body as Blob).text()).toBe(text);
  });

  it("throws the streamed save's 409 so that the conflict names their revision", async () => {
    fakeFetch(() => Response.json({ error: { code: "conflict", message: "stale", details: { current: { ...detail(6), text: "" } } } }, { status: 409 }));
    const error = await uploadHostedTable({ id: 5, revision: 3 }, fields, writer(`[${'"x",'.repeat(60)}"x"]`)).catch((caught: unknown) => caught);
    expect(conflictCurrent(error)?.revision).toBe(6);
  });
});
