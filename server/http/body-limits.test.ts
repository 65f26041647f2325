import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiRoot, routeFiles } from "@/test/route-files";
import { apiBodyLimits, defaultBodyLimit } from "./body-limits";

describe("apiBodyLimits", () => {
  it("lists every route that reads a body past the default limit (the preload would cut it short otherwise: a 413)", () => {
    const routesWithNamedLimits = routeFiles(apiRoot).flatMap((file) => {
      const source = readFileSync(file, "utf8");
      // readJson(request, schema, limit), readText/readBytes(request, limit), effectiveBodyLimit(request, limit): a
      // named constant (a literal such as 4 * 1024 is below the default).
      const named = [...source.matchAll(/\b(?:readJson\(request, [^,()]+|readText\(request|readBytes\(request|effectiveBodyLimit\(request), ([A-Za-z_]\w*)\)/g)];
      return named.length ? [`/api/${path.relative(apiRoot, path.dirname(file)).split(path.sep).join("/")}`] : [];
    });
    expect(routesWithNamedLimits.length).toBeGreaterThan(5);
    const listed = new Set(Object.keys(apiBodyLimits).map((key) => key.split(" ")[1]));
    expect(routesWithNamedLimits.filter((route) => !listed.has(route))).toEqual([]);
    for (const limit of Object.values(apiBodyLimits)) expect(limit).toBeGreaterThan(defaultBodyLimit);
  });
});
