import { diagnosisBodyLimit, jobBodyLimit } from "@/db/schema/job/constants";
import { maxBatchBytes, maxDeviceInfoBytes } from "@/db/schema/fault-event/constants";
import { inventoryBodyLimit, rankTableBodyLimit, rankTableTextLimit } from "@/db/schema/rank-table/constants";
import { affinityBodyLimit, cpuLayoutBodyLimit } from "@/db/schema/server-cpu-layout/validation";

/**
 * The largest request body each API route takes, known before Next.js reads the body. Next.js buffers every body
 * for proxy.ts in full before the route handler starts (up to `proxyClientMaxBodySize`, 33 MB), so a route that
 * refuses a body past its limit did so only after all of it was in memory: a 64 KiB route sent 33 MB chunked held
 * and copied 33 MB, and /api/health waited behind the garbage collections that caused. The server's preload
 * (scripts/body-limit.mjs, given this table by scripts/serve.ts) ends each API request's body one byte past its
 * route's limit here, before Next.js sees the rest (the rest is read and dropped), and stamps the limit on the
 * request (`bodyLimitHeader`); `readBytes` (server/http/body.ts) never takes more than that stamp, so a body the
 * preload cut is always a 413, never a shorter body taken for the whole one.
 *
 * Keys are "METHOD /api/route" as app/api's folders name it (`[id]` is one path segment); every other API request
 * may carry `defaultBodyLimit` bytes (routes may take less: sign-in, tokens and users take 4 KiB).
 */
export const defaultBodyLimit = 64 * 1024;

export const bodyLimitHeader = "x-rankscope-body-limit";

export const apiBodyLimits: Readonly<Record<string, number>> = {
  "POST /api/v1/affinity/check": affinityBodyLimit,
  "POST /api/v1/affinity/plan": affinityBodyLimit,
  "PUT /api/v1/clusters/[id]/inventory": inventoryBodyLimit,
  "POST /api/v1/clusters/[id]/inventory/preview": inventoryBodyLimit,
  "PUT /api/v1/clusters/[id]/servers/[serverId]/cpu-layout": cpuLayoutBodyLimit,
  "POST /api/v1/fault-events": maxBatchBytes,
  "POST /api/v1/fault-events/device-info": maxDeviceInfoBytes,
  "POST /api/v1/jobs": jobBodyLimit,
  "POST /api/v1/jobs/[id]/diagnoses": diagnosisBodyLimit,
  "POST /api/v1/jobs/rings-config": jobBodyLimit,
  "POST /api/v1/rank-tables": rankTableBodyLimit,
  "PUT /api/v1/rank-tables/[id]": rankTableBodyLimit,
  "PUT /api/v1/rank-tables/[id]/text": rankTableTextLimit,
  "POST /api/v1/rank-tables/text": rankTableTextLimit,
  "POST /api/v1/rank-tables/validate": rankTableBodyLimit,
};

/**
 * The API routes whose request bodies stream to their handler instead of passing proxy.ts: those that take bodies
 * larger than this (rank tables: 128 MiB, 1 GiB streamed as text, inventories and the jobs that carry tables: 32 MiB, fault-event batches: 16 MiB, diagnosis uploads:
 * 512 MiB). Next.js buffers the whole body of every request the proxy sees (and the handler then reads it again),
 * so a 16-32 MB body cost a buffered copy, its copy for the handler and several V8 collections of the external
 * memory they held, long enough to make /api/health wait over 100 ms (issue 13). proxy.ts `config.matcher` leaves
 * out a request to these paths when it carries a body (Content-Type or Transfer-Encoding; the
 * matcher has to be a literal, server/auth/unproxied.test.ts holds it to this list), and every handler in their
 * route files is an `unproxiedRoute()` (server/auth/guard.ts), which applies what the proxy would have.
 */
export const streamedBodyThreshold = 1024 * 1024;

/** The routes (as app/api's folders name them) of `streamedBodyThreshold`. */
export const streamedApiRoutes: readonly string[] = [
  ...new Set(
    Object.entries(apiBodyLimits)
      .filter(([, limit]) => limit > streamedBodyThreshold)
      .map(([key]) => key.split(" ")[1]!),
  ),
].sort();

/** What the preload is given (JSON in RANKSCOPE_BODY_LIMITS): each route as a method and a path regex, static before dynamic. */
export interface BodyLimitRules {
  default: number;
  routes: { method: string; pattern: string; limit: number }[];
}

export function bodyLimitRules(): BodyLimitRules {
  const routes = Object.entries(apiBodyLimits).map(([key, limit]) => {
    const [method, route] = key.split(" ") as [string, string];
    return { method, pattern: `^${route.replace(/\[[^\]/]+\]/g, "[^/]+")}/?$`, limit, dynamic: route.includes("[") };
  });
  routes.sort((a, b) => Number(a.dynamic) - Number(b.dynamic));
  return { default: defaultBodyLimit, routes: routes.map(({ method, pattern, limit }) => ({ method, pattern, limit })) };
}

/** The body limit of `method pathname` (an API path), as the preload applies it. */
export function bodyLimitOf(method: string, pathname: string, rules: BodyLimitRules = bodyLimitRules()): number {
  return rules.routes.find((route) => route.method === method && new RegExp(route.pattern).test(pathname))?.limit ?? rules.default;
}
