import "server-only";
import { Worker } from "node:worker_threads";
import { validateRankTable, type Issue, type Lang, type ValidationReport } from "@/lib/rank-table";
import { canonicalize, type CanonicalTable } from "@/lib/rank-table-workspace/canonical";
import { inventoryFromRankTable, type Inventory } from "@/lib/topology/import";
import { runsFromSource, sourceWorker, WorkerPool, workerResourceLimits } from "./workers/worker-pool";

/**
 * The rank-table work of the API that costs seconds on a large table: validation (POST /rank-tables/validate),
 * canonicalisation for a save (POST /rank-tables, PUT /rank-tables/{id}) and the inventory a table describes
 * (the inventory preview and import). Inputs up to `inlineLimit` bytes (or characters) are handled on the request
 * thread (a few milliseconds); larger ones in the worker (server/workers/worker-pool.ts), one at a time with a
 * short queue, so a 32 MB body of hostile JSON costs that thread a copy, not seconds of CPU or its heap.
 */
export const inlineLimit = 256 * 1024;

/** One job of server/workers/rank-table.worker.ts. */
export type RankTableJob = { job: "validate"; bytes: Uint8Array; lang: Lang } | { job: "canonicalize"; text: string } | { job: "inventory"; text: string };

const globalPool = globalThis as { rankTableWorkerPool?: WorkerPool };

function pool(): WorkerPool {
  return (globalPool.rankTableWorkerPool ??= new WorkerPool({
    spawn: () =>
      runsFromSource(import.meta.url)
        ? sourceWorker(new URL("./workers/rank-table.worker.ts", import.meta.url))
        : new Worker(new URL("./workers/rank-table.worker.ts", import.meta.url), { resourceLimits: workerResourceLimits }),
    maxQueued: 4,
    timeoutMs: 30_000,
    idleMs: 5_000,
    label: "checking the rank table",
  }));
}

function runJob<T>(job: RankTableJob, transfer: ArrayBuffer[] = []): Promise<T> {
  return pool().run<T>(job, transfer);
}

export async function validateRankTableBody(bytes: Uint8Array, lang: Lang): Promise<ValidationReport> {
  if (bytes.byteLength <= inlineLimit) return validateRankTable(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), { lang });
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  return runJob<ValidationReport>({ job: "validate", bytes: owned, lang }, [owned.buffer as ArrayBuffer]);
}

/** The canonical text and summary a save stores (lib/rank-table-workspace/canonical.ts), with its DomainErrors. */
export async function canonicalRankTable(text: string): Promise<CanonicalTable> {
  return text.length <= inlineLimit ? canonicalize(text) : runJob<CanonicalTable>({ job: "canonicalize", text });
}

/** The inventory a rank table describes and its findings (lib/topology/import.ts). */
export async function rankTableInventory(text: string): Promise<{ inventory: Inventory | null; issues: Issue[] }> {
  return text.length <= inlineLimit ? inventoryFromRankTable(text) : runJob({ job: "inventory", text });
}
