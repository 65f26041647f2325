import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiRoot, routeFiles } from "@/test/route-files";
import { allowedApiMethods, apiMethods } from "./api-methods";

function exportedMethods(source: string): string[] {
  // A streamed route's 405 answerers (`= methodNotAllowedRoute`, server/http/method-not-allowed.ts) are not its methods.
  const direct = [...source.matchAll(/^export (?:const|async function|function) (GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\b(?! = methodNotAllowedRoute\b)/gm)].map((m) => m[1]!);
  const listed = [...source.matchAll(/^export \{([^}]*)\}/gm)].flatMap((m) => [...m[1]!.matchAll(/\bas (GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\b/g)].map((n) => n[1]!));
  return [...direct, ...listed].sort();
}

describe("apiMethods", () => {
  it("lists every route file on disk with exactly the methods it exports", () => {
    const onDisk: Record<string, string[]> = {};
    for (const file of routeFiles(apiRoot)) {
      const route = `/api/${path.relative(apiRoot, path.dirname(file)).split(path.sep).join("/")}`;
      if (route.includes("[...")) continue; // the catch-all answers 404 for unknown paths
      onDisk[route] = exportedMethods(readFileSync(file, "utf8"));
    }
    const listed = Object.fromEntries(Object.entries(apiMethods).map(([route, methods]) => [route, [...methods].sort()]));
    expect(listed).toEqual(onDisk);
  });

  it("matches static segments before [id], adds HEAD for GET, and knows nothing of unknown paths", () => {
    expect(allowedApiMethods("/api/v1/rank-tables/validate")).toEqual(["OPTIONS", "POST"]);
    expect(allowedApiMethods("/api/v1/rank-tables/42")).toEqual(["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "PUT"]);
    expect(allowedApiMethods("/api/v1/users/abc/unlock")).toEqual(["OPTIONS", "POST"]);
    expect(allowedApiMethods("/api/v1/nothing/here")).toBeUndefined();
    expect(allowedApiMethods("/api/v1/clusters/a/b/topology")).toBeUndefined();
  });
});
