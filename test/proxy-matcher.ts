import * as pageStaticInfo from "next/dist/build/analysis/get-page-static-info";
import { getMiddlewareRouteMatcher, type MiddlewareRouteMatch } from "next/dist/shared/lib/router/utils/middleware-route-matcher";
import { config } from "@/proxy";

// The build's own compiler of `config.matcher` (exported, not declared in its types).
const { getMiddlewareMatchers } = pageStaticInfo as unknown as { getMiddlewareMatchers: (matcher: typeof config.matcher, nextConfig: object) => Parameters<typeof getMiddlewareRouteMatcher>[0] };
const matches: MiddlewareRouteMatch = getMiddlewareRouteMatcher(getMiddlewareMatchers(config.matcher, { basePath: "" }));

/**
 * Whether a request to `pathname` with these headers passes proxy.ts, decided as `next start` decides it (proxy.ts
 * `config.matcher` compiled by the build's own code). For server/auth/unproxied.test.ts and the fault-injection
 * suite's app server, which runs the route handlers without Next.js.
 */
export function passesProxy(pathname: string, headers: Record<string, string | string[] | undefined>): boolean {
  return matches(pathname, { headers } as never, {});
}
