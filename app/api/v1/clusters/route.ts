import { listClusterSummaries } from "@/db/queries/inventory";
import { route } from "@/server/auth/guard";
import { jsonRead } from "@/server/http/read-routing";

export const dynamic = "force-dynamic";

export const GET = route("read", async ({ request }) => jsonRead(request, ({ db }) => listClusterSummaries(db)));
