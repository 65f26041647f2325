import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { replaceInventory } from "@/db/queries/inventory-replace";
import { unproxiedRoute } from "@/server/auth/guard";
import { methodNotAllowedRoute } from "@/server/http/method-not-allowed";
import { ApiError } from "@/server/http/errors";
import { MAX_ISSUES, previewImport } from "./shared";

export const dynamic = "force-dynamic";

/**
 * `PUT /api/v1/clusters/{id}/inventory` with `{"text", "expectedRevision"}`: replaces the cluster's inventory with
 * the one the rank table describes, in one transaction. A table with errors answers 422 with its findings.
 */
export const PUT = unproxiedRoute<{ params: Promise<{ id: string }> }>("write", async ({ request, context, actor }) => {
  const { id } = await context.params;
  const { preview, fields } = await previewImport(id, request, "import");
  if (!preview.valid || !preview.next || !preview.diff) {
    throw new ApiError(422, "invalid_rank_table", "the rank table has errors: fix them before importing it", {
      issues: preview.issues.filter((issue) => issue.severity === "error").slice(0, MAX_ISSUES),
    });
  }
  const { diff } = preview;
  const revision = await replaceInventory(appDatabase().db, preview.cluster.id, preview.next, fields.expectedRevision, actor, {
    serversAdded: diff.servers.added.length,
    serversRemoved: diff.servers.removed.length,
    serversChanged: diff.servers.changed.length,
    diesAdded: diff.dies.added.length,
    diesRemoved: diff.dies.removed.length,
    diesChanged: diff.dies.changed.length,
    conflicts: diff.conflicts.length,
  });
  return NextResponse.json({ revision, counts: preview.counts, diff });
});

/** The methods this route lacks: with a body they skip proxy.ts, so the route gives its 405 (error shape, Allow) itself. */
export const GET = methodNotAllowedRoute;
export const POST = methodNotAllowedRoute;
export const PATCH = methodNotAllowedRoute;
export const DELETE = methodNotAllowedRoute;
