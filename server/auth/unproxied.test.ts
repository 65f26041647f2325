/**
 * Which requests pass proxy.ts: all but those with a body to the routes that take large ones (streamedApiRoutes),
 * which stream to their unproxiedRoute() handlers (a body the proxy sees is buffered whole by Next.js). The matcher
 * is compiled as the build compiles it (test/proxy-matcher.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiMethods } from "@/lib/auth/api-methods";
import { streamedApiRoutes } from "@/server/http/body-limits";
import { passesProxy as matches } from "@/test/proxy-matcher";
import { appRoot } from "@/test/route-files";

const withBody = { "content-type": "multipart/form-data; boundary=x" };
const passesProxy = (pathname: string, headers: Record<string, string> = withBody) => matches(pathname, headers);
const concrete = (route: string) => route.replace(/\[\w+\]/g, "12");

describe("proxy.ts matcher", () => {
  it("streams the routes that take bodies over 1 MiB", () => {
    expect(streamedApiRoutes).toEqual([
      "/api/v1/clusters/[id]/inventory",
      "/api/v1/clusters/[id]/inventory/preview",
      "/api/v1/fault-events",
      "/api/v1/jobs",
      "/api/v1/jobs/[id]/diagnoses",
      "/api/v1/jobs/rings-config",
      "/api/v1/rank-tables",
      "/api/v1/rank-tables/[id]",
      "/api/v1/rank-tables/[id]/text",
      "/api/v1/rank-tables/text",
      "/api/v1/rank-tables/validate",
    ]);
  });

  it("leaves out requests with a body to the streamed routes only (their sub-routes pass): every other API route and every page passes the proxy", () => {
    for (const route of streamedApiRoutes) {
      expect(passesProxy(concrete(route)), route).toBe(false);
      expect(passesProxy(`${concrete(route)}/`), route).toBe(false);
    }
    const others = Object.keys(apiMethods).filter((route) => !streamedApiRoutes.includes(route));
    expect(others.filter((route) => !passesProxy(concrete(route)))).toEqual([]);
    for (const path of ["/", "/jobs/12", "/jobs/12/diagnoses", "/rank-tables", "/rank-tables/12", "/api/v1/jobs/12", "/api/v1/jobs/12/diagnoses/x", "/api/v1/jobs/1/2/diagnoses", "/api/v1/rank-tables/12/export", "/api/v1/rank-tables/12/revisions", "/api/v1/clusters/12/inventory/rank-table", "/api/v1/clusters/12", "/api/v1/fault-events/device-info", "/api/v1/fault-events/stats", "/api/v1/jobs/12/affinity", "/api/v1/nothing"]) {
      expect(passesProxy(path), path).toBe(true);
    }
    expect(passesProxy("/_next/static/chunks/x.js")).toBe(false);
  });

  it("sends requests without a body to the streamed routes through the proxy (their 405 has the error shape); any sign of a body leaves them out", () => {
    for (const route of streamedApiRoutes) {
      expect(passesProxy(concrete(route), {}), route).toBe(true);
      expect(passesProxy(`${concrete(route)}/`, {}), route).toBe(true);
      for (const header of [{ "content-type": "text/plain" }, { "transfer-encoding": "chunked" }] as Record<string, string>[]) expect(passesProxy(concrete(route), header), `${route} ${JSON.stringify(header)}`).toBe(false);
      // A PUT without a body, as clients send it (e2e/jobs.spec.ts): its 405 comes from the proxy.
      expect(passesProxy(concrete(route), { "content-length": "0" }), route).toBe(true);
    }
  });

  it("has every handler of a streamed route guard itself: unproxiedRoute(), never route()", () => {
    for (const route of streamedApiRoutes) {
      const source = readFileSync(path.join(appRoot, route.replace(/^\//, ""), "route.ts"), "utf8");
      const handlers = [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = (\w+)/g)].map((m) => [m[1], m[2]]);
      expect(handlers.length, route).toBeGreaterThan(0);
      expect(handlers.filter(([, wrapper]) => wrapper !== "unproxiedRoute" && wrapper !== "methodNotAllowedRoute"), route).toEqual([]);
    }
  });

  it("has every streamed route answer the methods it lacks itself (a request with a body skips the proxy's 405): methodNotAllowedRoute", () => {
    for (const route of streamedApiRoutes) {
      const source = readFileSync(path.join(appRoot, route.replace(/^\//, ""), "route.ts"), "utf8");
      const answered = [...source.matchAll(/^export const (GET|POST|PUT|PATCH|DELETE) = methodNotAllowedRoute;/gm)].map((m) => m[1]).sort();
      const lacking = ["DELETE", "GET", "PATCH", "POST", "PUT"].filter((method) => !apiMethods[route]!.includes(method));
      expect(answered, route).toEqual(lacking);
    }
  });
});
