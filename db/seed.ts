import { inArray } from "drizzle-orm";
import { demoClusters } from "@/lib/inventory/demo";
import type { ClusterSpec } from "@/lib/inventory/model";
import type { Database } from "./client";
import { systemActor } from "./queries/audit";
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
