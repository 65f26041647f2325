/**
 * Which requests pass proxy.ts: all but the diagnosis uploads, which stream to their unproxiedRoute() handler (a body
 * the proxy sees is buffered whole by Next.js). The matcher is compiled as the build compiles it.
 */
import * as pageStaticInfo from "next/dist/build/analysis/get-page-static-info";
import { getMiddlewareRouteMatcher, type MiddlewareRouteMatch } from "next/dist/shared/lib/router/utils/middleware-route-matcher";
import { describe, expect, it } from "vitest";
import { apiMethods } from "@/lib/auth/api-methods";
import { config } from "@/proxy";

// The build's own compiler of `config.matcher` (exported, not declared in its types).
const { getMiddlewareMatchers } = pageStaticInfo as unknown as { getMiddlewareMatchers: (matcher: typeof config.matcher, nextConfig: object) => Parameters<typeof getMiddlewareRouteMatcher>[0] };
const matches: MiddlewareRouteMatch = getMiddlewareRouteMatcher(getMiddlewareMatchers(config.matcher, { basePath: "" }));
const passesProxy = (pathname: string, headers: Record<string, string> = { "content-type": "multipart/form-data; boundary=x" }) => matches(pathname, { headers } as never, {});

describe("proxy.ts matcher", () => {
  it("leaves out the diagnosis uploads only (requests with a body): every other API route and every page passes the proxy", () => {
    expect(passesProxy("/api/v1/jobs/12/diagnoses")).toBe(false);
    expect(passesProxy("/api/v1/jobs/12/diagnoses/")).toBe(false);
    const others = Object.keys(apiMethods).filter((route) => route !== "/api/v1/jobs/[id]/diagnoses");
    expect(others.filter((route) => !passesProxy(route.replace(/\[\w+\]/g, "12")))).toEqual([]);
    for (const path of ["/", "/jobs/12", "/jobs/12/diagnoses", "/api/v1/jobs/12", "/api/v1/jobs/12/diagnoses/x", "/api/v1/jobs/1/2/diagnoses", "/api/v1/nothing"]) expect(passesProxy(path), path).toBe(true);
    expect(passesProxy("/_next/static/chunks/x.js")).toBe(false);
    // Without a body (the list's GET, a PUT probe) the diagnoses path passes the proxy: its 405 has the error shape.
    expect(passesProxy("/api/v1/jobs/12/diagnoses", {})).toBe(true);
    expect(passesProxy("/api/v1/jobs/12/diagnoses", { "content-type": "text/plain" })).toBe(false);
  });
});
