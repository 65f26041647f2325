/**
 * The methods each API route handler (app/api/**\/route.ts) exports. Next.js answers any other method with a bare
 * 405 (no body, no Allow header); proxy.ts answers it instead, in the standard error shape with `Allow`.
 * `api-methods.test.ts` compares this list with the route files on disk, so a new route or method fails it until
 * it is listed here. `[id]` matches one path segment. Unknown paths are not listed: the catch-all answers 404.
 */
export const apiMethods: Record<string, readonly string[]> = {
  "/api/health": ["GET"],
  "/api/auth/sign-in": ["POST"],
  "/api/auth/sign-out": ["POST"],
  "/api/auth/sign-out-everywhere": ["POST"],
  "/api/v1/affinity/check": ["POST"],
  "/api/v1/affinity/plan": ["POST"],
  "/api/v1/audit": ["GET"],
  "/api/v1/clusters": ["GET"],
  "/api/v1/clusters/[id]/cpu-layouts": ["GET"],
  "/api/v1/clusters/[id]/fabric": ["GET", "PUT"],
  "/api/v1/clusters/[id]/inventory": ["PUT"],
  "/api/v1/clusters/[id]/inventory/preview": ["POST"],
  "/api/v1/clusters/[id]/inventory/rank-table": ["GET"],
  "/api/v1/clusters/[id]/ports": ["GET"],
  "/api/v1/clusters/[id]/ports/plan": ["POST"],
  "/api/v1/clusters/[id]/ports/policy": ["PUT"],
  "/api/v1/clusters/[id]/servers/[serverId]/cpu-layout": ["GET", "PUT"],
  "/api/v1/clusters/[id]/topology": ["GET"],
  "/api/v1/clusters/[id]/topology/node": ["GET"],
  "/api/v1/clusters/[id]/topology/search": ["GET"],
  "/api/v1/events": ["GET"],
  "/api/v1/fault-events": ["GET", "POST"],
  "/api/v1/fault-events/device-info": ["POST"],
  "/api/v1/fault-events/health": ["GET"],
  "/api/v1/fault-events/inbox": ["GET"],
  "/api/v1/fault-events/report": ["GET"],
  "/api/v1/fault-events/settings": ["GET", "PUT"],
  "/api/v1/fault-events/stats": ["GET"],
  "/api/v1/jobs": ["GET", "POST"],
  "/api/v1/jobs/[id]": ["GET", "PATCH", "DELETE"],
  "/api/v1/jobs/[id]/affinity": ["GET"],
  "/api/v1/jobs/[id]/diagnoses": ["GET", "POST"],
  "/api/v1/jobs/[id]/dies": ["GET"],
  "/api/v1/jobs/[id]/ports": ["GET"],
  "/api/v1/jobs/[id]/ports/bindings": ["GET"],
  "/api/v1/jobs/[id]/ports/findings": ["GET"],
  "/api/v1/jobs/[id]/rank-table": ["GET"],
  "/api/v1/jobs/[id]/ranks": ["GET"],
  "/api/v1/jobs/rings-config": ["POST"],
  "/api/v1/me": ["GET"],
  "/api/v1/rank-tables": ["GET", "POST"],
  "/api/v1/rank-tables/[id]": ["GET", "PUT", "PATCH", "DELETE"],
  "/api/v1/rank-tables/[id]/export": ["GET"],
  "/api/v1/rank-tables/[id]/revisions": ["GET"],
  "/api/v1/rank-tables/[id]/text": ["GET", "PUT"],
  "/api/v1/rank-tables/text": ["POST"],
  "/api/v1/rank-tables/validate": ["POST"],
  "/api/v1/tokens": ["GET", "POST"],
  "/api/v1/tokens/[id]": ["DELETE"],
  "/api/v1/users": ["GET", "POST"],
  "/api/v1/users/[id]": ["PATCH"],
  "/api/v1/users/[id]/unlock": ["POST"],
};

const compiled = Object.entries(apiMethods).map(([pattern, methods]) => ({
  // Static segments win over [id] (e.g. /rank-tables/validate over /rank-tables/[id]): they are tried first.
  dynamic: pattern.includes("["),
  regex: new RegExp(`^${pattern.replace(/\[[^\]/]+\]/g, "[^/]+")}/?$`),
  methods,
}));
compiled.sort((a, b) => Number(a.dynamic) - Number(b.dynamic));

/**
 * The methods a request to `pathname` may use (with HEAD where GET is, and OPTIONS, which Next.js answers itself),
 * or undefined when no route handler serves the path.
 */
export function allowedApiMethods(pathname: string): string[] | undefined {
  const match = compiled.find((route) => route.regex.test(pathname));
  if (!match) return undefined;
  const allowed = new Set([...match.methods, "OPTIONS"]);
  if (allowed.has("GET")) allowed.add("HEAD");
  return [...allowed].sort();
}
