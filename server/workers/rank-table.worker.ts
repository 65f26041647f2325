/**
 * Worker-thread entry of server/rank-table-worker.ts: one rank-table job per message, off the request thread.
 * Bodies arrive as UTF-8 bytes (transferred, not copied) and are decoded here, so the request thread never holds
 * the decoded string. `validate`: the report of a table sent raw. `text`: a save's table
 * streamed in on a port (./rank-table-text.ts), stored gzipped. `body`: a JSON body carrying a table, parsed and
 * checked here, with the table's canonical form or inventory (./rank-table-body.ts). `inventory`: the inventory a
 * table's text describes, with its findings (the CLI's import of one table per super pod). A DomainError (the table
 * cannot be stored) or a ZodError (the body has the wrong shape) goes back as its parts and is thrown again on the
 * request thread.
 */
import { parentPort } from "node:worker_threads";
import { validateRankTable, type Lang } from "@/lib/rank-table";
import { inventoryRowsFromRankTable } from "@/db/queries/inventory-rows";
import { inventoryFromRankTable } from "@/lib/topology/import";
import type { RankTableJob } from "@/server/rank-table-worker";
// Aliased, not relative: a build copies this file alone to .next*/server/assets and, as runsFromSource() sees the
// bundle's import.meta.url as the source's, starts it from there through tsx, which resolves @/ from tsconfig.json.
import { gatheredBody } from "@/server/workers/body-port";
import { readRankTableBody } from "@/server/workers/rank-table-body";
import { readTextStream } from "@/server/workers/rank-table-text";
import { workerFailure, type WorkerAnswer } from "@/server/workers/worker-pool";

function run(job: RankTableJob): unknown {
  switch (job.job) {
    case "validate":
      return validateRankTable(new TextDecoder("utf-8", { ignoreBOM: true }).decode(gatheredBody(job.body)), { lang: job.lang as Lang });
    case "body":
      return readRankTableBody(job.kind, gatheredBody(job.body));
    case "inventory":
      return inventoryFromRankTable(job.text);
    case "text":
      return readTextStream(job.port);
    case "inventory-rows":
      return inventoryRowsFromRankTable(new TextDecoder("utf-8", { ignoreBOM: true }).decode(job.bytes), job.state);
  }
}

parentPort!.on("message", (job: RankTableJob) => {
  // `text` answers when its stream has ended; the others at once.
  void Promise.resolve()
    .then(() => run(job))
    .then(
      (value): WorkerAnswer => ({ ok: true, value }),
      (error: unknown) => workerFailure(error),
    )
    .then((answer) => parentPort!.postMessage(answer));
});
