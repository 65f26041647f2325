import { describe, expect, it } from "vitest";
import { seedDemo } from "@/db/seed";
import { testDatabase } from "@/test/database";
import { listDiagnoses } from "./job-diagnoses";
import { getJob } from "./jobs";
import { listJobs } from "./jobs-list";
import { seedDemoJobs } from "./jobs-seed";
import { jobPortCheck } from "./ports";

describe("seedDemoJobs", () => {
  it("adds a running A3 job from its rings-config, a failed A2 job with its diagnosis and two A2 jobs sharing hosts, once", async () => {
    const handle = testDatabase();
    await seedDemo(handle.db);
    expect(await seedDemoJobs(handle)).toBe(4);
    expect(await seedDemoJobs(handle)).toBe(0);
    const jobs = await listJobs(handle.db);
    const running = jobs.find((j) => j.name === "llama-pretrain")!;
    expect(running).toMatchObject({ state: "running", source: "rings-config", cluster: { slug: "atlas-a3-demo" }, placement: { ranks: 64, placed: 64, servers: 4 } });
    const failed = jobs.find((j) => j.name === "gpt-finetune")!;
    expect(failed).toMatchObject({ state: "failed", placement: { ranks: 16, placed: 16 }, lastDiagnosis: { phase: "load" } });
    const [diagnosis] = await listDiagnoses(handle.db, failed.id);
    expect(diagnosis!.report.suspects[0]).toMatchObject({ rank: 11 });
    const detail = await getJob(handle.db, failed.id);
    expect(detail!.ranks.find((r) => r.rank === 11)!.dieId).toBe("a2-node1/d3");
    const [bert, resnet] = ["bert-pretrain", "resnet-train"].map((name) => jobs.find((j) => j.name === name)!);
    expect(bert).toMatchObject({ state: "running", placement: { ranks: 8, placed: 8, servers: 2 } });
    expect(resnet).toMatchObject({ state: "pending", placement: { ranks: 8, placed: 8, servers: 2 } });
    const ports = await jobPortCheck(handle.db, resnet!.id);
    const clash = ports.findings.find((f) => f.code === "PT001" && f.parties.some((p) => p.jobName === "training/bert-pretrain" && p.source === "HCCL_IF_BASE_PORT"));
    expect(clash?.servers).toEqual(["a2-node2", "a2-node3"]);
    expect(ports.findings.some((f) => f.code === "PT006")).toBe(false);
  });
});
