import "server-only";
import { Worker } from "node:worker_threads";
import type { EncoderState } from "@/db/queries/inventory-rows";
import { inventoryBodyLimit, rankTableBodyLimit } from "@/db/schema/rank-table/constants";
import { validateRankTable, type Lang, type ValidationReport } from "@/lib/rank-table";
import { assertJsonType, readBytes } from "./http/body";
import { readRankTableBody, type RankTableBody, type RankTableBodyKind } from "./workers/rank-table-body";
import { runsFromSource, sourceWorker, WorkerPool, workerResourceLimits } from "./workers/worker-pool";

/**
 * The rank-table work of the API that costs seconds on a large table: validation (POST /rank-tables/validate),
 * canonicalisation for a save (POST /rank-tables, PUT /rank-tables/{id}) and the inventory a table describes
 * (the inventory preview and import). Bodies up to `inlineLimit` bytes are handled on the request thread (a few
 * milliseconds); larger ones in the worker (server/workers/worker-pool.ts), one at a time with a short queue. The
 * worker gets the body's bytes (read once, as they stream in: these routes do not pass proxy.ts) and does all the
 * rest (decoding, JSON, the schema, the table), so a 32 MB body of hostile JSON costs the request thread one copy
 * of its bytes, not seconds of CPU, its heap, or the garbage collections of strings and objects as large.
 */
export const inlineLimit = 256 * 1024;

/** One job of server/workers/rank-table.worker.ts. */
export type RankTableJob =
  | { job: "validate"; bytes: Uint8Array; lang: Lang }
  | { job: "body"; kind: RankTableBodyKind; bytes: Uint8Array }
  // The CLI's `cluster add --from DIR` (scripts/cli/commands/cluster.ts): one SuperPoD table's inventory, read while
  // the previous one is written.
  | { job: "inventory"; text: string }
  // The same, as the rows of its tables (db/queries/inventory-rows.ts), numbered on from `state`.
  | { job: "inventory-rows"; bytes: Uint8Array; state: EncoderState };

const globalPool = globalThis as { rankTableWorkerPool?: WorkerPool };

function pool(): WorkerPool {
  return (globalPool.rankTableWorkerPool ??= new WorkerPool({
    spawn: () =>
      runsFromSource(import.meta.url)
        ? sourceWorker(new URL("./workers/rank-table.worker.ts", import.meta.url))
        : new Worker(new URL("./workers/rank-table.worker.ts", import.meta.url), { resourceLimits: workerResourceLimits }),
    maxQueued: 4,
    // A 128 MiB body (rankTableBodyLimit) is seconds of CPU: a 131,072-rank "2.0" save (108 MiB) took 5.3 s of CPU
    // and 15 s of wall time at load 5.7 on this 2-core machine (README, editor at scale); at the loads of 10-30 seen
    // here 30 s could refuse it.
    timeoutMs: 120_000,
    idleMs: 5_000,
    label: "checking the rank table",
  }));
}

function runJob<T>(job: RankTableJob, transfer: ArrayBuffer[] = []): Promise<T> {
  return pool().run<T>(job, transfer);
}

/** The bytes as a buffer of their own (a body larger than Node's small-buffer pool already is one), to transfer. */
function owned(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

/** The validator's report on a table sent as the raw body (any content type). */
export async function validateRankTableBody(request: Request, lang: Lang): Promise<ValidationReport> {
  const bytes = await readBytes(request, rankTableBodyLimit);
  if (bytes.byteLength <= inlineLimit) return validateRankTable(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), { lang });
  const job = owned(bytes);
  return runJob<ValidationReport>({ job: "validate", bytes: job, lang }, [job.buffer as ArrayBuffer]);
}

/**
 * A JSON body carrying a rank table (server/workers/rank-table-body.ts), read and worked through: its other fields
 * and the table's canonical form (`create`, `update`) or inventory (`import`, `preview`). The errors readJson gives.
 */
export async function rankTableBody<K extends RankTableBodyKind>(request: Request, kind: K): Promise<RankTableBody<K>> {
  assertJsonType(request);
  const bytes = await readBytes(request, kind === "create" || kind === "update" ? rankTableBodyLimit : inventoryBodyLimit);
  if (bytes.byteLength <= inlineLimit) return readRankTableBody(kind, bytes);
  const job = owned(bytes);
  return runJob<RankTableBody<K>>({ job: "body", kind, bytes: job }, [job.buffer as ArrayBuffer]);
}
