import { diagnoseTexts } from "@/lib/hccl-diagnose";
import { demoA2Cluster, demoA3Cluster } from "@/lib/inventory/demo";
import { demoFailedJob, demoRingsConfig } from "@/lib/jobs/demo-job";
import type { DatabaseHandle } from "../client";
import { jobs } from "../schema";
import { systemActor } from "./audit";
import { findCluster } from "./clusters";
import { storeDiagnosis } from "./job-diagnoses";
import { createJob } from "./jobs";
import { ingestRingsConfig } from "./jobs-rings-config";

const hour = 3_600_000;

/**
 * The demo seed's jobs: a pre-training job running on four servers of the A3 demo's first super pod (taken in as
 * the Ascend Operator's rings-config ConfigMap), and on the A2 demo a fine-tuning job that failed while setting up
 * its links, with its logs diagnosed (rank 11 never connected), so a newcomer sees a diagnosis on the first start,
 * and two A2 jobs on the same two servers whose ports collide (a running and a pending one), for the ports page.
 * Runs once: a database that has any job is left alone. Returns the number of jobs created.
 */
export async function seedDemoJobs(handle: DatabaseHandle, now = Date.now()): Promise<number> {
  if ((await handle.db.$count(jobs)) > 0) return 0;
  let created = 0;
  const present = async (slug: string) => (await findCluster(handle.db, slug)) !== null;
  const a3 = demoA3Cluster();
  if (await present(a3.slug)) {
    await ingestRingsConfig(
      handle,
      a3.slug,
      demoRingsConfig(a3.servers.slice(0, 4), { name: "llama-pretrain", namespace: "training", version: String(Math.floor((now - 6 * hour) / 1000)) }),
      systemActor,
      now - 6 * hour,
    );
    created++;
  }

  const a2 = demoA2Cluster();
  if (!(await present(a2.slug))) return created;
  const logs = demoFailedJob(a2, { phase: "load", servers: 2, culpritRank: 11, startedAt: new Date(now - 2 * hour).toISOString() });
  const failed = await createJob(
    handle,
    {
      cluster: a2.slug,
      name: "gpt-finetune",
      namespace: "training",
      state: "failed",
      startedAt: now - 2 * hour,
      endedAt: now - 2 * hour + 12 * 60_000,
      rankTable: logs.rankTable,
      environment: { HCCL_CONNECT_TIMEOUT: "600", HCCL_EXEC_TIMEOUT: "1800", MASTER_ADDR: a2.servers[0]!.hostIp ?? "", MASTER_PORT: "29500", ASCEND_RT_VISIBLE_DEVICES: "0,1,2,3,4,5,6,7" },
    },
    systemActor,
    now,
  );
  created++;
  const files = [...logs.files()];
  const bytes = files.reduce((n, f) => n + f.text.length, 0);
  await storeDiagnosis(handle, failed.id, diagnoseTexts(files, { rankTable: logs.rankTable }), { files: files.length, bytes }, systemActor, now);

  // Two jobs sharing a2-node2 and a2-node3 (NPUs 0–3 and 4–7), both on HCCL's default ports: the ports page's
  // first conflict, which a plan resolves by moving the pending one.
  const shared = a2.servers.slice(2, 4);
  for (const [name, npus, state] of [["bert-pretrain", [0, 4], "running"], ["resnet-train", [4, 8], "pending"]] as const) {
    const config = demoRingsConfig(shared.map((s) => ({ ...s, npus: s.npus.slice(npus[0], npus[1]) })), { name, namespace: "training", version: "1" });
    await createJob(handle, { cluster: a2.slug, name, namespace: "training", state, startedAt: state === "running" ? now - hour : null, rankTable: config.data["hccl.json"] }, systemActor, now);
    created++;
  }
  return created;
}
