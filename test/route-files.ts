import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The app's directory, app/ (from import.meta.url, so the Vitest suites and the tsx scripts both resolve it). */
export const appRoot = fileURLToPath(new URL("../app", import.meta.url));
/** The app's API root, app/api. */
export const apiRoot = path.join(appRoot, "api");

/** Every route file (route.ts and the other extensions Next.js reads) below `dir` (app/api by default), as absolute paths. */
export function routeFiles(dir = apiRoot): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return /^route\.(ts|tsx|js|mjs)$/.test(entry.name) ? [full] : [];
  });
}
