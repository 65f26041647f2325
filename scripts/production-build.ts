/**
 * The one production build the test runners share: `next build` with Next.js's standalone output in .next-e2e.
 * `npm run test:e2e` makes it; the hostile-input suite (`--reuse-build`), `npm run test:cluster` and
 * `npm run test:bundle -- --skip-build` (which packs the offline archive from it) serve or pack the same build, so
 * CI runs `next build` once instead of twice (a build is 5-15 minutes of a loaded 2-core machine).
 *
 * The build is served as the offline archive serves it: scripts/serve.ts with RANKSCOPE_STANDALONE_SERVER naming
 * server.js (the preloads, the database and the env are serve.ts's, as for `next start`). server.js serves its
 * static files and public/ only from inside the standalone folder, which `next build` does not copy there
 * (https://nextjs.org/docs/app/api-reference/config/next-config-js/output#automatically-copying-traced-files), so
 * buildStandalone copies them in.
 *
 * Paths are resolved from this file, not the working directory, so the runners work from anywhere.
 */
import { existsSync } from "node:fs";
import { cp } from "node:fs/promises";
import path from "node:path";
import { checkout, lockCheckout } from "./e2e-lock";
import { npx, runCommand } from "./run-command";

/** The build's folder (NEXT_DIST_DIR): its own, so a build never disturbs a running `npm run dev` (.next). */
export const sharedDistDir = ".next-e2e";
const distPath = path.join(checkout, sharedDistDir);
export const standalonePath = path.join(distPath, "standalone");
/** What scripts/serve.ts runs (RANKSCOPE_STANDALONE_SERVER) to serve the build. */
export const standaloneServer = path.join(standalonePath, "server.js");

/** Whether the build is there and complete (server.js with its static files). */
export const standaloneBuilt = (): boolean => existsSync(standaloneServer) && existsSync(path.join(standalonePath, sharedDistDir, "static"));

/**
 * `next build` into .next-e2e with the standalone output, then its static files and public/ copied into the
 * standalone folder. `typecheck: false` skips the build's own type check (`npm run typecheck`, run by CI, covers it;
 * a build a minute shorter); `niceness` lowers its priority when it shares the machine with tests (scripts/test.ts).
 * Resolves to the exit code. The caller holds the checkout's lock (lockCheckout).
 */
export async function buildStandalone(options: { typecheck: boolean; niceness?: number }): Promise<number> {
  const started = performance.now();
  const env = {
    NEXT_DIST_DIR: sharedDistDir,
    RANKSCOPE_STANDALONE: "1",
    NEXT_TELEMETRY_DISABLED: "1",
    ...(options.typecheck ? {} : { RANKSCOPE_SKIP_BUILD_TYPECHECK: "1" }),
  };
  const code = await runCommand(npx, ["next", "build"], env, { niceness: options.niceness });
  console.log(`[build] next build into ${sharedDistDir}: ${((performance.now() - started) / 1000).toFixed(0)} s (exit ${code})`);
  if (code !== 0) return code;
  // `next build` empties its folder first, so these copies never mix with an earlier build's.
  await cp(path.join(distPath, "static"), path.join(standalonePath, sharedDistDir, "static"), { recursive: true });
  const publicDir = path.join(checkout, "public");
  if (existsSync(publicDir)) await cp(publicDir, path.join(standalonePath, "public"), { recursive: true });
  return 0;
}

/**
 * For a runner that serves the build for its whole run (`npm run test:cluster`): takes the checkout's lock (so an
 * e2e run does not rebuild it underneath), builds when there is no build yet (rebuild with `npm run test:e2e` or
 * `npm run bundle` to test changed code), and returns server.js.
 */
export async function sharedStandaloneServer(log: (line: string) => void): Promise<string> {
  await lockCheckout();
  if (!standaloneBuilt()) {
    log(`no standalone build in ${sharedDistDir} yet: building it`);
    const code = await buildStandalone({ typecheck: false });
    if (code !== 0) throw new Error(`next build failed (exit ${code})`);
  }
  return standaloneServer;
}
