import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "@/db/embedded";
import { adminQuery, withDatabase } from "@/test/urls";

/* The scale bench's plumbing (./scale.ts): its database, scratch directories, child commands, stored row counts, table. */

const root = path.resolve(import.meta.dirname, "../..");
const scratch = process.env.SCALE_DIR ?? "/var/tmp";

/** A fresh directory under the scratch directory. */
export async function scratchDirectory(prefix: string): Promise<string> {
  await mkdir(scratch, { recursive: true });
  return mkdtemp(path.join(scratch, prefix));
}

/** Runs a command to its end: its stdout, and with GNU time (when installed) its peak RSS and CPU seconds. */
export function run(command: string[], env: Record<string, string> = {}): Promise<{ ms: number; stdout: string; peakMb: number | null; cpuS: number | null }> {
  const gnuTime = existsSync("/usr/bin/time");
  const argv = gnuTime ? ["/usr/bin/time", "-f", "maxrss-kb %M cpu-s %U %S", ...command] : command;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => {
      const ms = performance.now() - started;
      const rss = /maxrss-kb (\d+) cpu-s ([\d.]+) ([\d.]+)/.exec(stderr);
      if (code !== 0) reject(new Error(`${command.join(" ")} exited ${code}: ${stderr.slice(-2000)}`));
      else resolve({ ms, stdout, peakMb: rss ? Math.round(Number(rss[1]) / 1024) : null, cpuS: rss ? Number(rss[2]) + Number(rss[3]) : null });
    });
  });
}

export const tsx = (script: string, ...args: string[]) => [process.execPath, "--import", "tsx", path.join(root, script), ...args];

/** A database for the run: fresh on TEST_DATABASE_URL's server, or a throwaway embedded server. */
export async function scaleDatabase(): Promise<{ url: string; cleanup: () => Promise<void> }> {
  const server = process.env.TEST_DATABASE_URL;
  if (server) {
    const name = `rankscope_scale_${randomBytes(4).toString("hex")}`;
    await adminQuery(server, `create database ${name}`);
    return { url: withDatabase(server, name), cleanup: () => adminQuery(server, `drop database if exists ${name} with (force)`) };
  }
  const dataDir = await scratchDirectory("rankscope-scale-pg-");
  const embedded = await startEmbeddedPostgres({ dataDir });
  return {
    url: embedded.url(),
    cleanup: async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** How many rows of each kind the cluster's inventory stored. */
export async function storedRows(url: string, slug: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(
      `select (select count(*) from servers s where s.cluster_id = c.id) as servers,
         (select count(*) from devices d where d.cluster_id = c.id) as dies,
         (select count(*) from device_net_addresses a where a.cluster_id = c.id) as addresses,
         (select count(*) from links l where l.cluster_id = c.id) as links,
         (select count(*) from fabric_links f where f.cluster_id = c.id) as fabric_links
       from clusters c where c.slug = $1`,
      [slug],
    );
    return Object.fromEntries(Object.entries(rows[0]!).map(([key, value]) => [key, Number(value)]));
  } finally {
    await client.end();
  }
}

/** One row per figure, one column per size, and its growth from the first size to the last. */
export function printTable(columns: string[], rows: Map<string, (number | null)[]>): void {
  const format = (value: number | null) => (value === null ? "—" : value >= 100 ? Math.round(value).toLocaleString("en") : value.toFixed(1));
  const header = ["figure", ...columns, "growth"];
  const lines = [...rows].map(([name, values]) => {
    const first = values[0];
    const last = values[values.length - 1];
    const growth = first && last !== null && last !== undefined && values.length > 1 ? `×${(last / first).toFixed(1)}` : "";
    return [name, ...values.map(format), growth];
  });
  const widths = header.map((_, i) => Math.max(header[i]!.length, ...lines.map((line) => line[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
  for (const cells of lines) console.log(line(cells));
}
