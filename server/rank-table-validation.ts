import "server-only";
import { Worker } from "node:worker_threads";
import { validateRankTable, type Lang, type ValidationReport } from "@/lib/rank-table";
import { runsFromSource, sourceWorker, WorkerPool, workerResourceLimits } from "./workers/worker-pool";

/**
 * Validation for POST /api/v1/rank-tables/validate. Bodies up to `inlineLimit` bytes are checked on the request
 * thread (a few milliseconds); larger ones in the worker (server/workers/worker-pool.ts), one at a time with a short
 * queue, so a 32 MB body of hostile JSON costs that thread a copy, not seconds of CPU or its heap.
 */
export const inlineLimit = 256 * 1024;

const globalPool = globalThis as { rankTableValidationPool?: WorkerPool };

function pool(): WorkerPool {
  return (globalPool.rankTableValidationPool ??= new WorkerPool({
    spawn: () =>
      runsFromSource(import.meta.url)
        ? sourceWorker(new URL("./workers/validate-rank-table.worker.ts", import.meta.url))
        : new Worker(new URL("./workers/validate-rank-table.worker.ts", import.meta.url), { resourceLimits: workerResourceLimits }),
    maxQueued: 4,
    timeoutMs: 30_000,
    idleMs: 5_000,
    label: "validating the rank table",
  }));
}

export async function validateRankTableBody(bytes: Uint8Array, lang: Lang): Promise<ValidationReport> {
  if (bytes.byteLength <= inlineLimit) return validateRankTable(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), { lang });
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  return pool().run<ValidationReport>({ bytes: owned, lang }, [owned.buffer as ArrayBuffer]);
}
