import { appDatabase } from "@/db/client";
import { getRankTable } from "@/db/queries/rank-tables";
import { exportQuerySchema } from "@/db/schema/rank-table/validation";
import { toConfigMap, toJobName } from "@/lib/rank-table-workspace/configmap";
import { route } from "@/server/auth/guard";
import { ApiError } from "@/server/http/errors";
import { etag, tableId, type IdContext } from "../../shared";

export const dynamic = "force-dynamic";

/**
 * The canonical file of the current (or `revision=N`) revision: `format=json` (hccl.json) or `format=configmap`
 * (the Ascend Operator's rings-config-<job> ConfigMap; `job` defaults to the table's name, `namespace` optional).
 */
export const GET = route<IdContext>("read", async ({ request, context }) => {
  const id = await tableId(context);
  const query = exportQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const detail = await getRankTable(appDatabase().db, id, query.revision);
  if (!detail) throw new ApiError(404, "not_found", query.revision ? `rank table ${id} has no revision ${query.revision}` : `there is no rank table ${id}`);
  // A streamed save's revision too long to be one string: GET …/text sends it as stored.
  if (detail.largeText) throw new ApiError(413, "text_too_large", `the revision's text is ${detail.largeText.bytes} bytes, too long to export here: GET /api/v1/rank-tables/${id}/text`, { bytes: detail.largeText.bytes });
  const headers: Record<string, string> = { etag: etag(detail.revision), "x-rank-table-revision": String(detail.revision) };
  if (query.format === "configmap") {
    const job = query.job?.trim() || detail.name;
    const yaml = toConfigMap(detail.text, { job, namespace: query.namespace });
    return new Response(yaml, {
      headers: { ...headers, "content-type": "application/yaml; charset=utf-8", "content-disposition": `attachment; filename="rings-config-${toJobName(job)}.yaml"` },
    });
  }
  return new Response(detail.text, {
    headers: { ...headers, "content-type": "application/json; charset=utf-8", "content-disposition": `attachment; filename="hccl.json"` },
  });
});
