/**
 * The streamed-save bench's server side: PUT /api/v1/rank-tables/{id}/text's real route handler (guard, body limit,
 * the worker's parse, validation and gzip, the revision's transaction) in a process of its own, fed the table file
 * as a stream, so its peak RSS is the server's. Then GET …/text (gzip as stored) is checked against the file.
 *
 * Run by scripts/bench/rank-table-stream-save.ts as `node --conditions=react-server --import tsx <this file> FILE`
 * with DATABASE_URL (migrated); prints one JSON line of figures.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { GET, PUT } from "@/app/api/v1/rank-tables/[id]/text/route";
import { appDatabase } from "@/db/client";
import { systemActor } from "@/db/queries/audit";
import { createRankTable } from "@/db/queries/rank-table-saves";
import { createApiToken } from "@/db/queries/tokens";

const file = process.argv[2]!;
const origin = "http://127.0.0.1";
const db = appDatabase().db;
const { token } = await createApiToken(db, { name: "stream-save bench", role: "editor" }, systemActor);
const { id } = await createRankTable(db, { name: "SuperCluster 524k", text: '{"version": "2.0", "rank_count": "0", "rank_list": []}' }, systemActor);
const context = { params: Promise.resolve({ id: String(id) }) };
const bytes = (await stat(file)).size;

const cpuStart = process.cpuUsage();
const start = performance.now();
const answer = await PUT(
  new Request(`${origin}/api/v1/rank-tables/${id}/text`, {
    method: "PUT",
    body: Readable.toWeb(createReadStream(file, { highWaterMark: 1024 * 1024 })) as ReadableStream<Uint8Array>,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "if-match": '"1"', "content-length": String(bytes) },
    duplex: "half",
  } as RequestInit),
  context,
);
const wall = performance.now() - start;
const cpu = process.cpuUsage(cpuStart);
const saved = (await answer.json()) as { revision?: number; summary?: { valid: boolean }; error?: unknown };
const peakRss = process.resourceUsage().maxRSS * 1024;

// Read back as the editor would (gzip as stored), decompressed here only to compare with the file.
const read = await GET(new Request(`${origin}/api/v1/rank-tables/${id}/text`, { headers: { authorization: `Bearer ${token}`, accept: "application/gzip" } }), context);
const gzip = Buffer.from(await read.arrayBuffer());
const fileHash = createHash("sha256");
for await (const chunk of createReadStream(file)) fileHash.update(chunk as Buffer);
const identical = createHash("sha256").update(gunzipSync(gzip, { maxOutputLength: 2 ** 31 - 1 })).digest("hex") === fileHash.digest("hex");

console.log(JSON.stringify({ status: answer.status, saved, bytes, gzipBytes: gzip.byteLength, wallMs: wall, cpuMs: (cpu.user + cpu.system) / 1000, peakRss, identical }));
await appDatabase().pool.end();
