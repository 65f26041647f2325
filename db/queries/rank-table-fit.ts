/** CL001 for a saved rank table: its layout against the chips of the cluster it is linked to (lib/rank-table/hardware-fit.ts). */
import { eq } from "drizzle-orm";
import { hardwareFit, type HardwareFitFinding } from "@/lib/rank-table/hardware-fit";
import type { Lang } from "@/lib/rank-table";
import type { Database } from "../client";
import { servers } from "../schema";
import type { RevisionSummary } from "../schema/rank-table/validation";

export async function linkedHardwareFit(
  db: Pick<Database, "selectDistinct">,
  table: { clusterId: number | null; clusterName: string | null; summary: RevisionSummary },
  lang: Lang = "en",
): Promise<HardwareFitFinding | null> {
  if (table.clusterId === null) return null;
  const rows = await db.selectDistinct({ model: servers.model }).from(servers).where(eq(servers.clusterId, table.clusterId));
  return hardwareFit(table.summary, table.clusterName ?? String(table.clusterId), rows.map((row) => row.model), lang) ?? null;
}
