/**
 * HCCL diagnosis speed: a failed job of 1,024 ranks (128 servers × 8 NPUs, one hung culprit in execution) written as
 * real-shaped logs (run/debug plogs per process, a launcher log per node; about 200 MB in all) into a temporary
 * directory, then `rankscope diagnose DIR --rank-table FILE --format json` run in a child process (the diagnose
 * command: directory walk, streamed reads, the engine), timed from spawn to exit, with the child's CPU time and peak
 * RSS. Target: under 20 s and 1 GB.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { generateFailedJobLogs } from "../../lib/hccl-diagnose";
import type { BenchSection } from "./index";

const SERVERS = 128;
const DEVICES = 8;
const CULPRIT = 613;
/** INFO bytes per rank: 1,024 × 200 KB ≈ 205 MB with the error logs. */
const BYTES_PER_RANK = 200 * 1024;

/** The child: runs the diagnose command (argument parsing, directory walk, streamed reads, engine, JSON output) and
 *  prints the verdict with its own CPU time and peak RSS. It loads that command alone: the CLI's index would also load
 *  the account commands' database and auth modules, about 2 s of start-up that is not diagnosis. */
const CHILD = `
import { diagnoseCommand } from "./scripts/cli/commands/diagnose.ts";
import { nodeIo } from "./scripts/cli/io.ts";
const io = { ...nodeIo(), stdout: (text) => { globalThis.__out = (globalThis.__out ?? "") + text; } };
const status = await diagnoseCommand.run(process.argv.slice(2), io);
const report = JSON.parse(globalThis.__out);
process.stdout.write(JSON.stringify({ status, phase: report.phase, top: report.suspects[0], stats: report.stats, maxRssKb: process.resourceUsage().maxRSS, cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000 }));
`;

async function runChild(args: string[]): Promise<{ output: string; ms: number }> {
  const start = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", CHILD, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`diagnose child exited with ${code}`);
  return { output, ms: performance.now() - start };
}

export const diagnoseBench: BenchSection = {
  name: "diagnose",
  description: "rankscope diagnose on 1,024 ranks' logs (≈200 MB): time and peak RSS (target < 20 s, < 1 GB)",
  async run() {
    const root = await mkdtemp(join(tmpdir(), "rankscope-bench-diagnose-"));
    try {
      const job = generateFailedJobLogs({ phase: "execute", servers: SERVERS, devicesPerServer: DEVICES, culpritRank: CULPRIT, bytesPerRank: BYTES_PER_RANK });
      let bytes = 0;
      let files = 0;
      const writeStart = performance.now();
      for (const file of job.files()) {
        const path = join(root, "logs", file.path);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, file.text);
        bytes += Buffer.byteLength(file.text);
        files++;
      }
      const table = join(root, "hccl.json");
      await writeFile(table, job.rankTable);
      console.log(`wrote ${files} files, ${(bytes / 1024 / 1024).toFixed(1)} MB of logs for ${SERVERS * DEVICES} ranks in ${((performance.now() - writeStart) / 1000).toFixed(1)} s`);

      const { output, ms } = await runChild(["diagnose", join(root, "logs"), "--rank-table", table, "--format", "json"]);
      const result = JSON.parse(output) as { phase: string; top?: { rank?: number; confidence: number }; stats: { lines: number; unknownLines: number }; maxRssKb: number; cpuMs: number };
      console.log(`diagnose (CLI, child process incl. start-up): ${(ms / 1000).toFixed(2)} s wall, ${(result.cpuMs / 1000).toFixed(2)} s CPU, peak RSS ${(result.maxRssKb / 1024).toFixed(0)} MB, ${result.stats.lines} lines (${result.stats.unknownLines} unknown), ${((bytes / 1024 / 1024) / (ms / 1000)).toFixed(0)} MB/s`);
      console.log(`verdict: phase ${result.phase}, top suspect rank ${result.top?.rank} (confidence ${result.top?.confidence}); planted culprit rank ${CULPRIT}: ${result.top?.rank === CULPRIT ? "found" : "MISSED"}`);
      console.log(`targets: time ${ms < 20_000 ? "met" : "MISSED"} (< 20 s), memory ${result.maxRssKb < 1024 * 1024 ? "met" : "MISSED"} (< 1 GB)`);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  },
};
