import { eq, sql } from "drizzle-orm";
import { isOlderVersion, parseRingsConfig } from "@/lib/jobs/rings-config";
import { summarizePlacement } from "@/lib/jobs/placement";
import type { JobState } from "@/lib/jobs/model";
import type { DatabaseHandle } from "../client";
import { jobs } from "../schema";
import type { JobSummary } from "../schema/job/ranks";
import { recordAudit, type AuditActor } from "./audit";
import { loadJobSummary } from "./job-ranks";
import { clusterOf, insertPlacedJob, placeTable, replaceRanks } from "./jobs";

export interface RingsConfigResult {
  job: JobSummary;
  status: "created" | "updated" | "unchanged";
}

const ended: readonly JobState[] = ["succeeded", "failed"];

/**
 * Takes in a rings-config ConfigMap as the Ascend Operator writes it, again and again as it changes: the first post
 * creates the job (pending while hccl.json is initializing), a completed table places it and marks it running (its
 * start is the first time it was seen completed), a post identical to what is stored, or older by the operator's
 * version, changes nothing. When the operator goes back to initializing (a pod was rescheduled), the job is pending
 * again but keeps the placement it last ran on. A job someone marked succeeded or failed stays so.
 */
export async function ingestRingsConfig(handle: DatabaseHandle, cluster: string, body: unknown, actor: AuditActor, now = Date.now()): Promise<RingsConfigResult> {
  const config = parseRingsConfig(body);
  const ref = await clusterOf(handle, cluster);
  const outcome = await handle.db.transaction(async (tx) => {
    // One post at a time per job: a lock on the job's name, held until commit, also covers the first insert.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`job:${ref.id}:${config.namespace}:${config.job}`}))`);
    const [existing] = await tx
      .select()
      .from(jobs)
      .where(sql`${jobs.clusterId} = ${ref.id} and ${jobs.namespace} = ${config.namespace} and ${jobs.name} = ${config.job}`);
    const table = config.hasServers ? config.rankTableText : null;
    if (!existing) {
      const placed = await placeTable(tx, ref.id, table);
      const id = await insertPlacedJob(
        tx,
        {
          clusterId: ref.id,
          name: config.job,
          namespace: config.namespace,
          state: config.state,
          source: "rings-config",
          startedAt: config.state === "running" ? new Date(now) : null,
          rankTableText: table,
          rankTableStatus: config.status,
          configVersion: config.version,
          labels: config.labels,
        },
        placed,
        actor,
        {
          after: { cluster: ref.slug, name: config.job, namespace: config.namespace, state: config.state, source: "rings-config", status: config.status },
          details: { version: config.version },
        },
      );
      return { id, status: "created" as const };
    }
    const sameTable = table === null || table === existing.rankTableText;
    if (isOlderVersion(config.version, existing.configVersion) || (sameTable && config.status === existing.rankTableStatus)) {
      return { id: existing.id, status: "unchanged" as const };
    }
    const state = ended.includes(existing.state) ? existing.state : config.state;
    const changes = {
      state,
      startedAt: existing.startedAt ?? (state === "running" ? new Date(now) : null),
      rankTableStatus: config.status,
      configVersion: config.version,
      labels: config.labels,
      ...(sameTable ? {} : { rankTableText: table }),
    };
    let placement = existing.placement;
    if (!sameTable) {
      const placed = await placeTable(tx, ref.id, table);
      placement = summarizePlacement(placed);
      await replaceRanks(tx, existing.id, placed);
    }
    await tx.update(jobs).set({ ...changes, placement, updatedAt: sql`now()` }).where(eq(jobs.id, existing.id));
    await recordAudit(tx, {
      actor,
      action: "job.update",
      target: { type: "job", id: existing.id },
      before: { state: existing.state, status: existing.rankTableStatus, version: existing.configVersion, placement: existing.placement },
      after: { state, status: config.status, version: config.version, placement },
      details: { source: "rings-config", tableChanged: !sameTable },
    });
    return { id: existing.id, status: "updated" as const };
  });
  return { job: (await loadJobSummary(handle.db, outcome.id))!, status: outcome.status };
}
