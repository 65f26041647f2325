/** Upload readers: content decides (gzip, tar, text), long names, truncated archives, binary files. */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diagnoseTexts, generateFailedJobLogs, LogDiagnoser } from "@/lib/hccl-diagnose";
import { diagnosePaths, feedUpload, type SkippedInput } from "./sources";

const job = generateFailedJobLogs({ phase: "load", servers: 2, devicesPerServer: 4, culpritRank: 6 });
let root: string;
const longDirectory = `node_1/${"very-long-directory-name-".repeat(5)}`;

async function* chunks(bytes: Uint8Array, size = 1000): AsyncIterable<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

async function diagnose(name: string, bytes: Uint8Array) {
  const diagnoser = new LogDiagnoser({ rankTable: job.rankTable });
  const skipped: SkippedInput[] = [];
  await feedUpload(diagnoser, name, chunks(bytes), skipped);
  return { report: diagnoser.finish(), skipped };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "rankscope-sources-"));
  for (const file of job.files()) {
    const path = join(root, "logs", file.path.startsWith("node_1/") ? file.path.replace("node_1/", longDirectory) : file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.text);
  }
  await writeFile(join(root, "logs", "core.77"), Buffer.from([1, 0, 2, 0]));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("feedUpload", () => {
  it("reads a gzipped tar without an extension, GNU long names included, and skips binary members", async () => {
    const tar = execFileSync("tar", ["--format=gnu", "-czf", "-", "-C", join(root, "logs"), "."]);
    const { report, skipped } = await diagnose("upload", tar);
    expect(report.phase).toBe("load");
    expect(report.suspects[0]).toMatchObject({ rank: 6 });
    expect(report.ranks.find((rank) => rank.rank === 5)!.files.some((file) => file.includes(longDirectory))).toBe(true);
    expect(skipped).toEqual([{ path: "upload/core.77", reason: "binary content" }]);
  });

  it("reads a pax (posix) tar the same way", async () => {
    const tar = execFileSync("tar", ["--format=posix", "-cf", "-", "-C", join(root, "logs"), "."]);
    const { report } = await diagnose("logs.tar", tar);
    expect(report.suspects[0]).toMatchObject({ rank: 6 });
    expect(report.ranks.find((rank) => rank.rank === 5)!.files.some((file) => file.startsWith("logs/node_1/very-long"))).toBe(true);
  });

  it("reads one gzipped log as one file named without .gz", async () => {
    const text = "[rank3]: EI0006: [PID: 1] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time.\n";
    const { report } = await diagnose("worker-0.log.gz", gzipSync(text));
    expect(report.phase).toBe("load");
    expect(report.ranks.find((rank) => rank.rank === 3)).toMatchObject({ status: "timeout", files: ["worker-0.log"] });
  });

  it("says where a truncated archive ends", async () => {
    const tar = execFileSync("tar", ["-cf", "-", "-C", join(root, "logs"), "."]);
    await expect(diagnose("cut.tar", tar.subarray(0, 2000))).rejects.toThrow(/ends in the middle of an entry/);
  });

  it("stops a gzip bomb at the upload's budget of unpacked bytes (413), shared by its files", async () => {
    const bomb = gzipSync(new Uint8Array(2 * 1024 * 1024).fill(10));
    expect(bomb.length).toBeLessThan(4 * 1024);
    const budget = { left: 1024 * 1024, limit: 1024 * 1024 };
    const diagnoser = new LogDiagnoser();
    await expect(feedUpload(diagnoser, "bomb.gz", chunks(bomb), [], budget)).rejects.toMatchObject({ kind: "too_large", code: "payload_too_large", details: { unpackedLimit: 1024 * 1024 } });
    // Within the budget, a second file spends what the first left.
    const small = { left: 3000, limit: 3000 };
    await feedUpload(new LogDiagnoser(), "a.log.gz", chunks(gzipSync("x".repeat(2000))), [], small);
    expect(small.left).toBe(1000);
    await expect(feedUpload(new LogDiagnoser(), "b.log.gz", chunks(gzipSync("x".repeat(2000))), [], small)).rejects.toThrow(/unpack to more than 3000 bytes/);
  });
});

describe("diagnosePaths", () => {
  it("reads files from disk through one reused buffer the same as their texts, lines cut at its edges included", async () => {
    // 3 MB of chatter whose lines straddle the 1 MiB read buffer's edges, then the failure on a known line.
    const line = "[INFO] HCCL(9,python):2025-07-23-03:47:57.070.463 [op_base.cc:1] [9][Op] entry AllReduce count[4096] ✓\n";
    const count = Math.ceil((3 * 1024 * 1024) / Buffer.byteLength(line));
    const big = `${line.repeat(count)}[ERROR] HCCL(9,python):2025-07-23-03:47:57.070.463 [hccl_socket.cc:100] [9][HcclSocket][Listen] socket type[1], listen on ip[10.0.0.9] and specific port[16666] fail.\n`;
    const dir = join(root, "big");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "a-worker.log"), big);
    await writeFile(join(dir, "b-empty.log"), "");
    await writeFile(join(dir, "c-worker.log.gz"), gzipSync(big));
    const { report } = await diagnosePaths([dir]);
    const texts = diagnoseTexts([
      { path: "a", text: big },
      { path: "b", text: "" },
      { path: "c", text: big },
    ]);
    expect(report.stats).toEqual(texts.stats);
    expect(report.suspects[0]).toMatchObject({ kind: "port", port: 16666, evidence: [{ file: join(dir, "a-worker.log"), line: count + 1 }, { file: join(dir, "c-worker.log"), line: count + 1 }] });

    const fromDisk = await diagnosePaths([join(root, "logs")]);
    const fromTexts = diagnoseTexts([...job.files()], { rankTable: job.rankTable });
    expect(fromDisk.report.stats.lines).toBe(fromTexts.stats.lines);
    expect(fromDisk.report.suspects[0]).toMatchObject({ rank: 6 });
  });
});
