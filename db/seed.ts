import { inArray } from "drizzle-orm";
import { demoClusters } from "@/lib/inventory/demo";
import type { ClusterSpec } from "@/lib/inventory/model";
import type { Database, DatabaseHandle } from "./client";
import { systemActor } from "./queries/audit";
import { seedDemoCpuLayouts } from "./queries/cpu-layout";
import { seedDemoFaults } from "./queries/faults";
import { seedDemoJobs } from "./queries/jobs-seed";
import { insertCluster } from "./queries/inventory";
import { createUser, findUserByUsername } from "./queries/users";
import { clusters } from "./schema";

export interface SeedResult {
  created: string[];
  skipped: string[];
}

/** Creates the demo clusters that are not there yet; a cluster that exists (by slug) is left as it is. */
export async function seedDemo(db: Database, specs: ClusterSpec[] = demoClusters()): Promise<SeedResult> {
  const existing = await db
    .select({ slug: clusters.slug })
    .from(clusters)
    .where(inArray(clusters.slug, specs.map((s) => s.slug)));
  const present = new Set(existing.map((row) => row.slug));
  const result: SeedResult = { created: [], skipped: [] };
  for (const spec of specs) {
    if (present.has(spec.slug)) {
      result.skipped.push(spec.slug);
      continue;
    }
    await insertCluster(db, spec);
    result.created.push(spec.slug);
  }
  return result;
}

export interface DemoSeedResult {
  clusters: SeedResult;
  /** Simulated fault events, CPU layouts and jobs added (0: already there, or their cluster is not). */
  faults: number;
  cpuLayouts: number;
  jobs: number;
}

/** Everything the demo brings: its clusters, a simulated day of faults, CPU layouts and jobs; each part only once. */
export async function seedDemoData(handle: DatabaseHandle): Promise<DemoSeedResult> {
  const clusters = await seedDemo(handle.db);
  const faults = await seedDemoFaults(handle);
  const cpuLayouts = await seedDemoCpuLayouts(handle.db);
  const jobs = await seedDemoJobs(handle);
  return { clusters, faults, cpuLayouts, jobs };
}

/** The demo accounts (embedded demo database only; the README lists them). */
export const demoAccounts = [
  { username: "viewer", name: "Demo viewer", role: "viewer", password: "viewer-demo-pass" },
  { username: "editor", name: "Demo editor", role: "editor", password: "editor-demo-pass" },
  { username: "admin", name: "Demo admin", role: "admin", password: "admin-demo-pass" },
] as const;

/** Adds the demo accounts that are missing (an existing username is left alone). */
export async function seedDemoAccounts(db: Database): Promise<string[]> {
  const created: string[] = [];
  for (const account of demoAccounts) {
    if (await findUserByUsername(db, account.username)) continue;
    await createUser(db, account, systemActor);
    created.push(account.username);
  }
  return created;
}
