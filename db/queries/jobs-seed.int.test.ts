import { describe, expect, it } from "vitest";
import { seedDemo } from "@/db/seed";
import { testDatabase } from "@/test/database";
import { listDiagnoses } from "./job-diagnoses";
import { getJob, listJobs } from "./jobs";
import { seedDemoJobs } from "./jobs-seed";

describe("seedDemoJobs", () => {
  it("adds a running A3 job from its rings-config and a failed A2 job with its diagnosis, once", async () => {
    const handle = testDatabase();
    await seedDemo(handle.db);
    expect(await seedDemoJobs(handle)).toBe(2);
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
  });
});
