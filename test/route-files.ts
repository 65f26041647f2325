import { readdirSync } from "node:fs";
import path from "node:path";

/** The app's API root, app/api. */
export const apiRoot = path.resolve(__dirname, "../app/api");

/** Every route.ts below `dir` (app/api by default), as absolute paths. */
export function routeFiles(dir = apiRoot): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}
