import { NextResponse } from "next/server";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { loadFaultReport } from "@/db/queries/faults";
import { reportQuerySchema } from "@/db/schema/fault-event/validation";
import { reportCsv } from "@/lib/faults/report-csv";
import { queryObject } from "@/server/faults/http";
import { route } from "@/server/auth/guard";
import { readFor, readHeaders } from "@/server/http/read-routing";

export const dynamic = "force-dynamic";

/**
 * `GET /api/v1/fault-events/report?cluster=&from=&to=&compare=previous[&format=csv]`: the managers' report of a
 * period: totals, series, top offenders with their previous values, per-job time lost, deltas against the previous
 * period of the same length (lib/faults/report.ts has the shape, lib/faults/report-csv.ts the CSV's columns).
 */
export const GET = route("read", async ({ request }) => {
  const q = reportQuerySchema.parse(queryObject(request));
  const { value, read } = await readFor(request, async ({ db, pool }) => {
    const cluster = await getClusterOrThrow(db, q.cluster);
    return { cluster, report: await loadFaultReport(pool, cluster, { from: q.from, to: q.to, compare: q.compare === "previous" }) };
  });
  const { cluster, report } = value;
  if (q.format === "json") return NextResponse.json(report, { headers: readHeaders(read) });
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return new Response(reportCsv(report), {
    headers: {
      ...readHeaders(read),
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="fault-report-${cluster.slug}-${day(q.from)}-${day(q.to)}.csv"`,
    },
  });
});
