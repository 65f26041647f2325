import { NextResponse } from "next/server";
import { rankTableBodyLimit } from "@/db/schema/rank-table/constants";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";
import { MAX_ISSUES, previewImport, tableBody } from "../shared";

export const dynamic = "force-dynamic";

/**
 * `POST /api/v1/clusters/{id}/inventory/preview` with `{"text": "<rank table>"}`: what writing the table into the
 * cluster's inventory would add, change and remove, and its conflicts. Writes nothing.
 */
export const POST = route<{ params: Promise<{ id: string }> }>("write", async ({ request, context }) => {
  const { id } = await context.params;
  const { text } = await readJson(request, tableBody, rankTableBodyLimit);
  const preview = await previewImport(id, text);
  return NextResponse.json({
    revision: preview.cluster.inventoryRevision,
    valid: preview.valid,
    issues: preview.issues.slice(0, MAX_ISSUES),
    issueCount: preview.issues.length,
    counts: preview.counts,
    diff: preview.diff,
  });
});
