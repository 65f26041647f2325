/** `rankscope diagnose --job ID`: the job's rank table is used and the report is stored as a diagnosis of the job. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { listDiagnoses } from "@/db/queries/job-diagnoses";
import { createJob } from "@/db/queries/jobs";
import { seedDemo } from "@/db/seed";
import { demoA2Cluster } from "@/lib/inventory/demo";
import { demoFailedJob } from "@/lib/jobs/demo-job";
import { rankscope } from "@/test/cli";
import { testDatabase } from "@/test/database";

let directory = "";

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabase().url;
  directory = await mkdtemp(join(tmpdir(), "rankscope-diagnose-job-"));
});
afterAll(async () => {
  delete process.env.DATABASE_URL;
  await rm(directory, { recursive: true, force: true });
});

describe("rankscope diagnose --job", () => {
  it("diagnoses with the job's rank table and stores the diagnosis; an unknown job is trouble (2)", async () => {
    const a2 = demoA2Cluster();
    await seedDemo(testDatabase().db, [a2]);
    const logs = demoFailedJob(a2, { phase: "load", servers: 2, culpritRank: 11 });
    const job = await createJob(testDatabase(), { cluster: a2.slug, name: "cli-job", state: "failed", rankTable: logs.rankTable }, systemActor);
    for (const file of logs.files()) {
      const path = join(directory, file.path);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.text);
    }
    const result = await rankscope(["diagnose", directory, "--job", String(job.id), "--format", "json"]);
    expect(result.status, result.stderr).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ phase: "load", suspects: [{ rank: 11 }] });
    expect(result.stderr).toContain(`of job ${job.id} (default/cli-job)`);
    const [stored] = await listDiagnoses(testDatabase().db, job.id);
    expect(stored).toMatchObject({ phase: "load", authorName: expect.stringMatching(/^cli:/) });
    expect(stored!.bytes).toBeGreaterThan(1000);

    expect((await rankscope(["diagnose", directory, "--job", "999999"])).status).toBe(2);
    expect((await rankscope(["diagnose", directory, "--job", "x"])).status).toBe(2);
  });
});
