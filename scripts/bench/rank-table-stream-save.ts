/**
 * `npm run bench -- rank-table-stream-save`: a 524,288-rank "2.0" table (an Atlas 950 SuperCluster as one table,
 * issue 21) saved through the streamed route, PUT /rank-tables/{id}/text, into a fresh database on the server of
 * RANKSCOPE_BENCH_DATABASE_URL or TEST_DATABASE_URL. The table's canonical text (about 830 MiB, written by parts to a
 * temporary file here) is streamed to the route handler in a process of its own
 * (rank-table-stream-save-server.ts), which reports wall and CPU time and its peak RSS. RANKS changes the size.
 */
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import pg from "pg";
import { migrate } from "@/db/migrate";
import { generateA5Table, type JsonValue } from "@/lib/rank-table";
import { rankTableParts } from "@/lib/rank-table/write-parts";
import type { BenchSection } from "./index";

const MIB = 1024 * 1024;

async function writeTable(file: string, ranks: number): Promise<void> {
  const out = createWriteStream(file);
  for (const part of rankTableParts(generateA5Table({ racks: ranks / 64, npusPerRack: 64 }) as unknown as JsonValue)) {
    if (!out.write(part)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

async function withDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const serverUrl = process.env.RANKSCOPE_BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("set RANKSCOPE_BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL server the bench may create a database on)");
  const name = `rankscope_bench_stream_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    const pool = new pg.Pool({ connectionString: url.href, max: 1 });
    await migrate(pool);
    await pool.end();
    return await work(url.href);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

function runServer(file: string, databaseUrl: string): Promise<string> {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/bench/rank-table-stream-save-server.ts", file], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out.trim().split("\n").at(-1)!) : reject(new Error(`the bench server exited with ${code}: ${out}`))));
  });
}

export const rankTableStreamSaveBench: BenchSection = {
  name: "rank-table-stream-save",
  description: "a 524,288-rank table saved through PUT /rank-tables/{id}/text: time and the server's peak RSS",
  async run() {
    const ranks = Number(process.env.RANKS ?? 524_288);
    const dir = await mkdtemp(path.join(os.tmpdir(), "rankscope-stream-save-"));
    try {
      const file = path.join(dir, "hccl.json");
      await writeTable(file, ranks);
      const figures = JSON.parse(await withDatabase((url) => runServer(file, url))) as {
        status: number; bytes: number; gzipBytes: number; wallMs: number; cpuMs: number; peakRss: number; identical: boolean; saved: unknown;
      };
      console.log(`  ${ranks.toLocaleString("en")} ranks, ${(figures.bytes / MIB).toFixed(0)} MiB of text → ${figures.status}, stored ${(figures.gzipBytes / MIB).toFixed(1)} MiB gzipped, read back identical: ${figures.identical}`);
      console.log(`  save: ${(figures.wallMs / 1000).toFixed(1)} s wall, ${(figures.cpuMs / 1000).toFixed(1)} s CPU (all threads); server peak RSS ${(figures.peakRss / MIB).toFixed(0)} MiB; load average ${os.loadavg().map((n) => n.toFixed(1)).join(" ")}`);
      if (figures.status !== 200) console.log(`  answer: ${JSON.stringify(figures.saved)}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
