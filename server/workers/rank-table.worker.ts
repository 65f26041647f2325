/**
 * Worker-thread entry of server/rank-table-worker.ts: one rank-table job per message, off the request thread.
 * `validate`: the report of a table whose text arrives as UTF-8 bytes (transferred, not copied) and is decoded
 * here, so the request thread never holds the decoded string. `canonicalize`: the canonical text and summary a
 * saved revision stores. `inventory`: the inventory the table describes, with its findings. A DomainError (the
 * table cannot be stored) goes back as its parts and is thrown again on the request thread.
 */
import { parentPort } from "node:worker_threads";
import { DomainError } from "@/lib/errors";
import { validateRankTable, type Lang } from "@/lib/rank-table";
import { canonicalize } from "@/lib/rank-table-workspace/canonical";
import { inventoryFromRankTable } from "@/lib/topology/import";
import type { RankTableJob } from "../rank-table-worker";
import type { WorkerAnswer } from "./worker-pool";

function run(job: RankTableJob): unknown {
  switch (job.job) {
    case "validate":
      return validateRankTable(new TextDecoder("utf-8", { ignoreBOM: true }).decode(job.bytes), { lang: job.lang as Lang });
    case "canonicalize":
      return canonicalize(job.text);
    case "inventory":
      return inventoryFromRankTable(job.text);
  }
}

parentPort!.on("message", (job: RankTableJob) => {
  let answer: WorkerAnswer;
  try {
    answer = { ok: true, value: run(job) };
  } catch (error) {
    answer =
      error instanceof DomainError
        ? { ok: false, message: error.message, domain: { kind: error.kind, code: error.code, details: error.details } }
        : { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(answer);
});
