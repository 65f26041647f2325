import { z } from "zod";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { faultStatistics } from "@/db/queries/faults";
import { instantSchema } from "@/db/schema/fault-event/validation";
import { queryObject } from "@/server/faults/http";
import { route } from "@/server/auth/guard";
import { readKey, sharedFaultJson } from "@/server/faults/read-cache";

export const dynamic = "force-dynamic";

const query = z.object({ cluster: z.string().min(1), from: instantSchema, to: instantSchema });

/** `GET /api/v1/fault-events/stats?cluster=&from=&to=`: events by kind and level, MTTR, most-affected servers and dies, availability per super pod. */
export const GET = route("read", async ({ request }) => {
  const q = query.parse(queryObject(request));
  return sharedFaultJson(request, q.cluster, readKey("stats", request), async ({ db, pool }) => faultStatistics(pool, await getClusterOrThrow(db, q.cluster), q.from, q.to));
});
