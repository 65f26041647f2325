/**
 * Production instances on one PostgreSQL, for `npm run test:cluster` and the `sse` and `load` benches: the build they
 * run, an embedded primary for the benches, starting and stopping them, with the HTTP calls the checks make.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, startEmbeddedPostgres } from "@/db/embedded";
import { sharedStandaloneServer } from "../production-build";
import { descendantsUsage } from "../proc-stats";

export const root = process.cwd();
export const log = (line: string) => console.log(`[cluster] ${line}`);
export const tokenWritesPerMinute = 6;

export function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`FAILED: ${what}`);
  log(`ok: ${what}`);
}

export interface Instance {
  name: string;
  base: string;
  child: ChildProcess;
  output: () => string;
}

/**
 * The production build the instances run, as the environment scripts/serve.ts needs to start it: the standalone
 * build the test runners share (scripts/production-build.ts; built first when missing, reused as it is otherwise).
 */
export async function productionBuild(): Promise<Record<string, string>> {
  return { RANKSCOPE_STANDALONE_SERVER: await sharedStandaloneServer(log) };
}

/** An embedded PostgreSQL of its own for a bench's instances (a bench measures its own server, not a shared one). */
export async function embeddedPrimary(): Promise<{ url: string; dataDir: string; cleanup: () => Promise<void> }> {
  const dir = await embeddedDirectory();
  const server = await startEmbeddedPostgres({ dataDir: path.join(dir, "postgres"), persistent: false });
  log(`the primary is an embedded PostgreSQL on port ${server.port}`);
  return { url: server.url(), dataDir: server.dataDir, cleanup: async () => (await server.stop(), await rm(dir, { recursive: true, force: true })) };
}

/** Resident memory (bytes) and CPU ms so far of an instance's server processes (Next.js; not the supervisor). */
export const serverUsage = (instance: Instance) => descendantsUsage(instance.child.pid!);

/** Starts scripts/serve.ts with `env`, which holds the build (productionBuild()) and the database. */
export async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", "start"], {
    cwd: root,
    env: {
      ...process.env,
      RANKSCOPE_TOKEN_WRITES_PER_MINUTE: String(tokenWritesPerMinute),
      ...env,
      PORT: String(port),
      RANKSCOPE_HOST: "127.0.0.1",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`instance ${name} exited with ${child.exitCode}:\n${output}`);
    const health = await fetch(`${base}/api/health`).catch(() => undefined);
    if (health?.status === 200) {
      log(`instance ${name} is up on ${base}`);
      return { name, base, child, output: () => output };
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`instance ${name} did not answer /api/health within 180 s:\n${output}`);
}

export async function stopInstance(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  const exited = new Promise((resolve) => instance.child.on("exit", resolve));
  process.kill(-instance.child.pid!, "SIGTERM");
  await exited;
}

export const signIn = (instance: Instance, username: string, password: string) =>
  fetch(`${instance.base}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: instance.base },
    body: JSON.stringify({ username, password }),
  });
export const cookieOf = (response: Response) => response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
export const me = (instance: Instance, headers: Record<string, string>) => fetch(`${instance.base}/api/v1/me`, { headers, signal: AbortSignal.timeout(10_000) });

export const writeHeaders = (instance: Instance, cookie: string, extra: Record<string, string> = {}) => ({ cookie, origin: instance.base, "content-type": "application/json", ...extra });


/** A directory for an embedded PostgreSQL's data that user postgres can enter (as root it runs as that user). */
export async function embeddedDirectory(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rankscope-cluster-pg-"));
  await chmod(dir, 0o755);
  return dir;
}
