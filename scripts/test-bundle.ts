/**
 * `npm run test:bundle [-- --skip-build]`: makes the offline archive (`npm run bundle`), unpacks it into an empty
 * directory, and starts it as an air-gapped machine would: `sh start.sh` with only Node.js on PATH, no
 * DATABASE_URL (so the embedded PostgreSQL from the archive), HOME in the directory and the npm registry
 * unreachable (npm_config_registry=http://127.0.0.1:9). Then checks /api/health, a sign-in with a demo account, a
 * signed-in page, the CLI, and a clean stop. `--skip-build` packs the shared standalone build already made (scripts/production-build.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdtemp, readdir, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/db/embedded";

const root = process.cwd();
const log = (line: string) => console.log(`[test:bundle] ${line}`);
const startTimeoutMs = 240_000;

function run(command: string, args: string[], options: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? root, env: (options.env ?? process.env) as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`FAILED: ${what}`);
  log(`ok: ${what}`);
}

async function waitForHealth(base: string, server: ChildProcess): Promise<Response> {
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the bundle's server exited with ${server.exitCode} before answering`);
    const response = await fetch(`${base}/api/health`).catch(() => undefined);
    if (response) return response;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`no answer from ${base}/api/health within ${startTimeoutMs / 1000} s`);
}

async function main(): Promise<void> {
  const bundleArgs = ["scripts/bundle.ts", ...(process.argv.includes("--skip-build") ? ["--skip-build"] : [])];
  const bundled = await run(process.execPath, ["--import", "tsx", ...bundleArgs]);
  if (bundled.code !== 0) throw new Error(`npm run bundle failed:\n${bundled.output}`);
  const archives = (await readdir(path.join(root, "dist"))).filter((f) => f.startsWith("rankscope-") && f.endsWith(`${process.platform}-${process.arch}.tar.gz`));
  check(archives.length === 1, `one archive for ${process.platform}-${process.arch} in dist/ (${archives.join(", ")})`);
  const archive = path.join(root, "dist", archives[0]!);

  // An empty directory others can enter (as root, the embedded PostgreSQL runs as user postgres).
  const dir = await mkdtemp(path.join(os.tmpdir(), "rankscope-offline-"));
  await chmod(dir, 0o755);
  let server: ChildProcess | undefined;
  try {
    const unpacked = await run("tar", ["-xzf", archive, "-C", dir]);
    check(unpacked.code === 0, `the archive unpacks (${archive})`);
    const [name] = await readdir(dir);
    const home = path.join(dir, name!);
    check(existsSync(path.join(home, "start.sh")) && !existsSync(path.join(dir, "node_modules")), "start.sh is there, and no node_modules around it");

    const port = await freePort();
    const env: Record<string, string> = {
      // Only Node.js and the basic tools: no npm, npx or tsx of this checkout.
      PATH: [path.dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
      HOME: home,
      PORT: String(port),
      npm_config_registry: "http://127.0.0.1:9",
      NPM_CONFIG_OFFLINE: "true",
      RANKSCOPE_DATA_DIR: path.join(home, ".data", "postgres"),
    };
    log(`starting ${name} on port ${port} (registry unreachable)`);
    let output = "";
    const child = spawn("sh", [path.join(home, "start.sh")], { cwd: home, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });
    server = child;
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    const started = Date.now();
    const base = `http://127.0.0.1:${port}`;
    let health: Response;
    try {
      health = await waitForHealth(base, child);
    } catch (error) {
      console.error(output);
      throw error;
    }
    check(health.status === 200, `/api/health answers 200 after ${((Date.now() - started) / 1000).toFixed(1)} s: ${await health.text()}`);
    check(/embedded PostgreSQL is listening/.test(output), "it started the embedded PostgreSQL from the archive");

    const signIn = await fetch(`${base}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ username: "viewer", password: "viewer-demo-pass" }),
    });
    check(signIn.status === 200, `a demo account signs in (${signIn.status})`);
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const page = await fetch(`${base}/topology`, { headers: { cookie }, redirect: "manual" });
    const html = await page.text();
    check(page.status === 200 && html.includes("atlas-"), `a signed-in page renders (/topology: ${page.status}, ${html.length} bytes)`);
    const anonymous = await fetch(`${base}/topology`, { redirect: "manual" });
    check(anonymous.status >= 300 && anonymous.status < 400, `without the cookie it sends to sign-in (${anonymous.status})`);
    const statics = /\/_next\/static\/[^"']+\.js/.exec(html)?.[0];
    check(statics !== undefined && (await fetch(`${base}${statics}`)).status === 200, `its scripts are served (${statics})`);

    const cli = await run(path.join(home, "bin", "rankscope"), ["validate", path.join(root, "lib/rank-table/fixtures", "legacy-mindspore-8p.json")], { env, cwd: home });
    log(`CLI: exit ${cli.code}: ${cli.output.trim().split("\n")[0]}`);
    check(cli.code === 0 || cli.code === 1, "the CLI runs from the archive (validate exits 0 or 1, not with a crash)");

    process.kill(-child.pid!, "SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    check(code === 0 && /embedded PostgreSQL stopped/.test(output), `SIGTERM stops it cleanly (exit ${code})`);
    server = undefined;

    // With the console stopped, the CLI run from another directory opens the same embedded database.
    const { RANKSCOPE_DATA_DIR: _, ...cliEnv } = env;
    const users = await run(path.join(home, "bin", "rankscope"), ["user", "list"], { env: cliEnv, cwd: dir });
    check(users.code === 0 && /\bviewer\b/.test(users.output) && /\badmin\b/.test(users.output), `bin/rankscope user list, from another directory, reads the archive's database (exit ${users.code})`);
  } finally {
    if (server?.pid) process.kill(-server.pid, "SIGKILL");
    await rm(dir, { recursive: true, force: true });
  }
  log("passed");
}

main().catch((error: unknown) => {
  console.error(`[test:bundle] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
