import "server-only";
import { MessageChannel, type MessagePort, type ResourceLimits, type TransferListItem, Worker } from "node:worker_threads";
import type { EncoderState } from "@/db/queries/inventory-rows";
import { inventoryBodyLimit, rankTableBodyLimit, rankTableTextLimit } from "@/db/schema/rank-table/constants";
import { validateRankTable, type Lang, type ValidationReport } from "@/lib/rank-table";
import { assertJsonType, bodyChunks, readBytes } from "./http/body";
import { bodyTransfer, owned, portedBody, type WorkerBody } from "./workers/body-port";
import { readRankTableBody, type RankTableBody, type RankTableBodyKind } from "./workers/rank-table-body";
import type { StreamedText, TextChunk } from "./workers/rank-table-text";
import { runsFromSource, sourceWorker, WorkerPool, workerResourceLimits } from "./workers/worker-pool";

/**
 * The rank-table work of the API that costs seconds on a large table: validation (POST /rank-tables/validate),
 * canonicalisation for a save (POST /rank-tables, PUT /rank-tables/{id}) and the inventory a table describes
 * (the inventory preview and import). Bodies up to `inlineLimit` bytes are handled on the request thread (a few
 * milliseconds); larger ones in the worker (server/workers/worker-pool.ts), one at a time with a short queue. The
 * worker gets the body's bytes (read once, as they stream in: these routes do not pass proxy.ts; a body sent without
 * a length moves to the worker's port in blocks as it arrives, server/workers/body-port.ts) and does all the rest
 * (decoding, JSON, the schema, the table), so a 32 MB body of hostile JSON costs the request thread one copy of its
 * bytes, not seconds of CPU, its heap, or the garbage collections of strings and objects as large.
 */
export const inlineLimit = 256 * 1024;

/** One job of server/workers/rank-table.worker.ts. */
export type RankTableJob =
  | { job: "validate"; body: WorkerBody; lang: Lang }
  | { job: "body"; kind: RankTableBodyKind; body: WorkerBody }
  // The CLI's `cluster add --from DIR` (scripts/cli/commands/cluster.ts): one SuperPoD table's inventory, read while
  // the previous one is written.
  | { job: "inventory"; text: string }
  // A save's raw text, streamed in on `port` (server/workers/rank-table-text.ts).
  | { job: "text"; port: MessagePort }
  // The same, as the rows of its tables (db/queries/inventory-rows.ts), numbered on from `state`.
  | { job: "inventory-rows"; bytes: Uint8Array; state: EncoderState };

const globalPool = globalThis as { rankTableWorkerPool?: WorkerPool; rankTableTextPool?: WorkerPool };

function spawn(resourceLimits: ResourceLimits): Worker {
  return runsFromSource(import.meta.url)
    ? sourceWorker(new URL("./workers/rank-table.worker.ts", import.meta.url), resourceLimits)
    : new Worker(new URL("./workers/rank-table.worker.ts", import.meta.url), { resourceLimits });
}

function pool(): WorkerPool {
  return (globalPool.rankTableWorkerPool ??= new WorkerPool({
    spawn: () => spawn(workerResourceLimits),
    maxQueued: 4,
    // A 128 MiB body (rankTableBodyLimit) is seconds of CPU: a 131,072-rank "2.0" save (108 MiB) took 5.3 s of CPU
    // and 15 s of wall time at load 5.7 on this 2-core machine (README, editor at scale); at the loads of 10-30 seen
    // here 30 s could refuse it.
    timeoutMs: 120_000,
    idleMs: 5_000,
    label: "checking the rank table",
  }));
}

/**
 * The streamed saves' worker (POST /rank-tables/text, PUT /rank-tables/{id}/text), one save at a time and one waiting. A 524,288-rank "2.0"
 * table parsed is about 600 MB of heap and validating it takes the heap past 1.1 GB (measured), above the other
 * jobs' 768 MB; 1,408 MB keeps the server (its request thread about 300-400 MB) under 2 GB (issue 21). Its minute of
 * CPU at that size becomes several on a loaded machine, hence the longer timeout.
 */
function textPool(): WorkerPool {
  return (globalPool.rankTableTextPool ??= new WorkerPool({
    spawn: () => spawn({ ...workerResourceLimits, maxOldGenerationSizeMb: 1408 }),
    maxQueued: 1,
    timeoutMs: 600_000,
    idleMs: 5_000,
    label: "saving the rank table",
  }));
}

function runJob<T>(job: RankTableJob, transfer: TransferListItem[] = []): Promise<T> {
  return (job.job === "text" ? textPool() : pool()).run<T>(job, transfer);
}

/**
 * The body of at most `limit` bytes for the worker: read into one buffer when its length is declared, moved to a port
 * as it arrives when not (past `inlineLimit`: server/workers/body-port.ts). A buffer of at most `inlineLimit` bytes
 * is handled on the request thread; a larger one is made the worker's own to transfer.
 */
async function workerBody(request: Request, limit: number): Promise<WorkerBody> {
  if (request.headers.has("content-length")) {
    const bytes = await readBytes(request, limit);
    return bytes.byteLength <= inlineLimit ? bytes : owned(bytes);
  }
  return portedBody(bodyChunks(request, limit), inlineLimit);
}

const handledInline = (body: WorkerBody): body is Uint8Array => body instanceof Uint8Array && body.byteLength <= inlineLimit;

/** The validator's report on a table sent as the raw body (any content type). */
export async function validateRankTableBody(request: Request, lang: Lang): Promise<ValidationReport> {
  const body = await workerBody(request, rankTableBodyLimit);
  if (handledInline(body)) return validateRankTable(new TextDecoder("utf-8", { ignoreBOM: true }).decode(body), { lang });
  return runJob<ValidationReport>({ job: "validate", body, lang }, bodyTransfer(body));
}

/**
 * A JSON body carrying a rank table (server/workers/rank-table-body.ts), read and worked through: its other fields
 * and the table's canonical form (`create`, `update`) or inventory (`import`, `preview`). The errors readJson gives.
 */
export async function rankTableBody<K extends RankTableBodyKind>(request: Request, kind: K): Promise<RankTableBody<K>> {
  assertJsonType(request);
  const body = await workerBody(request, kind === "create" || kind === "update" ? rankTableBodyLimit : inventoryBodyLimit);
  if (handledInline(body)) return readRankTableBody(kind, body);
  return runJob<RankTableBody<K>>({ job: "body", kind, body }, bodyTransfer(body));
}

/** Body bytes sent to the worker and not yet parsed there, at most: the body waits in the socket, not in memory. */
const inFlightLimit = 8 * 1024 * 1024;

/**
 * A save's table sent as its raw text (POST /rank-tables/text, PUT /rank-tables/{id}/text), streamed into the worker as it arrives
 * (server/workers/rank-table-text.ts) and answered as its canonical text gzipped with the summary: the body is never
 * held whole on either thread, nor any text as one string. Past `rankTableTextLimit` a 413 (on the declared length
 * before anything is read, or while reading); the worker's errors (not UTF-8, not JSON, too large for its heap) as
 * rankTableBody gives them.
 */
export async function rankTableTextBody(request: Request): Promise<StreamedText> {
  const chunks = bodyChunks(request, rankTableTextLimit);
  const { port1, port2 } = new MessageChannel();
  const answer = runJob<StreamedText>({ job: "text", port: port2 }, [port2]);
  let failed = false;
  let inFlight = 0;
  let wake: (() => void) | undefined;
  const resume = () => {
    wake?.();
    wake = undefined;
  };
  answer.catch(() => {
    failed = true;
    resume();
  });
  port1.on("message", (parsed: number) => {
    inFlight -= parsed;
    if (inFlight <= inFlightLimit) resume();
  });
  const post = (chunk: TextChunk) => port1.postMessage(chunk, chunk instanceof Uint8Array ? [chunk.buffer as ArrayBuffer] : []);
  try {
    for await (const value of chunks) {
      if (failed) break;
      // A chunk of its own memory (not a view into a shared pool) to transfer.
      const chunk = owned(value);
      inFlight += chunk.byteLength;
      post(chunk);
      if (inFlight > inFlightLimit && !failed) await new Promise<void>((resolve) => (wake = resolve));
    }
    if (!failed) post(null);
    return await answer;
  } catch (error) {
    post("abort");
    await answer.catch(() => {});
    throw error;
  } finally {
    port1.close();
  }
}
