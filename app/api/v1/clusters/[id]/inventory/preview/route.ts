import { NextResponse } from "next/server";
import { unproxiedRoute } from "@/server/auth/guard";
import { methodNotAllowedRoute } from "@/server/http/method-not-allowed";
import { MAX_ISSUES, previewImport } from "../shared";

export const dynamic = "force-dynamic";

/**
 * `POST /api/v1/clusters/{id}/inventory/preview` with `{"text": "<rank table>"}`: what writing the table into the
 * cluster's inventory would add, change and remove, and its conflicts. Writes nothing.
 */
export const POST = unproxiedRoute<{ params: Promise<{ id: string }> }>("write", async ({ request, context }) => {
  const { id } = await context.params;
  const { preview } = await previewImport(id, request, "preview");
  return NextResponse.json({
    revision: preview.cluster.inventoryRevision,
    valid: preview.valid,
    issues: preview.issues.slice(0, MAX_ISSUES),
    issueCount: preview.issues.length,
    counts: preview.counts,
    diff: preview.diff,
  });
});

/** The methods this route lacks: with a body they skip proxy.ts, so the route gives its 405 (error shape, Allow) itself. */
export const GET = methodNotAllowedRoute;
export const PUT = methodNotAllowedRoute;
export const PATCH = methodNotAllowedRoute;
export const DELETE = methodNotAllowedRoute;
