import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { maxBatchBytes, maxDeviceInfoBytes } from "@/db/schema/fault-event/constants";
import { rankTableBodyLimit } from "@/db/schema/rank-table/constants";

/** server/http/body.ts `defaultBodyLimit` (that module is server-only, so it cannot be imported here). */
const defaultBodyLimit = 64 * 1024;

/** One method of one API route, found on disk the way app/authorization.int.test.ts finds them. */
export interface Endpoint {
  method: string;
  /** With dynamic segments filled in ([id] → a real cluster, rank table, token or user). */
  path: string;
  /** The route's own body limit (the over-limit attacks go just past it). */
  bodyLimit: number;
}

/** `export const POST = …`, `export async function GET`, `export { notFound as GET, … }`. */
function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(/export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g)) found.add(match[1]!);
  for (const block of source.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const match of block[1]!.matchAll(/\b(?:as\s+)?(GET|POST|PUT|PATCH|DELETE)\b/g)) found.add(match[1]!);
  }
  return [...found];
}

/** Bodies larger than the 64 KiB default, by route. */
const bodyLimits: Record<string, number> = {
  "/api/v1/rank-tables": rankTableBodyLimit,
  "/api/v1/rank-tables/[id]": rankTableBodyLimit,
  "/api/v1/rank-tables/validate": rankTableBodyLimit,
  "/api/v1/clusters/[id]/inventory": rankTableBodyLimit,
  "/api/v1/clusters/[id]/inventory/preview": rankTableBodyLimit,
  "/api/v1/fault-events": maxBatchBytes,
  "/api/v1/fault-events/device-info": maxDeviceInfoBytes,
  "/api/v1/tokens": 4 * 1024,
  "/api/v1/users": 4 * 1024,
  "/api/v1/users/[id]": 4 * 1024,
  "/api/auth/sign-in": 4 * 1024,
};

export function apiEndpoints(ids: { cluster: string; rankTable: string; token: string; user: string }): Endpoint[] {
  const appDir = path.resolve("app");
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/^route\.(ts|tsx|js|mjs)$/.test(entry.name)) files.push(full);
    }
  };
  walk(path.join(appDir, "api"));
  return files.sort().flatMap((file) => {
    const source = readFileSync(file, "utf8");
    const routePath = `/${path.relative(appDir, path.dirname(file)).split(path.sep).join("/")}`;
    const concrete = routePath
      .replace("/clusters/[id]", `/clusters/${ids.cluster}`)
      .replace("/rank-tables/[id]", `/rank-tables/${ids.rankTable}`)
      .replace("/tokens/[id]", `/tokens/${ids.token}`)
      .replace("/users/[id]", `/users/${ids.user}`)
      .replace("[...path]", "no/such/endpoint");
    return exportedMethods(source).map((method) => ({ method, path: concrete, bodyLimit: bodyLimits[routePath] ?? defaultBodyLimit }));
  });
}
