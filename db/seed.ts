import { inArray } from "drizzle-orm";
import { demoClusters } from "@/lib/inventory/demo";
import type { ClusterSpec } from "@/lib/inventory/model";
import type { Database } from "./client";
import { insertCluster } from "./queries/inventory";
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
