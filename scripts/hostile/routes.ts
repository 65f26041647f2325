import { readFileSync } from "node:fs";
import path from "node:path";
import { bodyLimitOf } from "@/server/http/body-limits";
import { appRoot, routeFiles } from "@/test/route-files";

/** One method of one API route, found on disk the way the authorisation matrix (test/authorization.ts) finds them. */
export interface Endpoint {
  method: string;
  /** With dynamic segments filled in ([id] → a real cluster, rank table, token or user). */
  path: string;
  /** The body limit the server applies to it (server/http/body-limits.ts; the over-limit attacks go just past it). */
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

export function apiEndpoints(ids: { cluster: string; rankTable: string; token: string; user: string }): Endpoint[] {
  return routeFiles().sort().flatMap((file) => {
    const source = readFileSync(file, "utf8");
    const routePath = `/${path.relative(appRoot, path.dirname(file)).split(path.sep).join("/")}`;
    const concrete = routePath
      .replace("/clusters/[id]", `/clusters/${ids.cluster}`)
      .replace("/rank-tables/[id]", `/rank-tables/${ids.rankTable}`)
      .replace("/tokens/[id]", `/tokens/${ids.token}`)
      .replace("/users/[id]", `/users/${ids.user}`)
      .replace("[...path]", "no/such/endpoint");
    return exportedMethods(source).map((method) => ({ method, path: concrete, bodyLimit: bodyLimitOf(method, concrete) }));
  });
}
