/** `rankscope diagnose` end to end: a generated failed job on disk (directory and .tar.gz), golden text output. */
import { execFileSync } from "node:child_process";
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diagnoseTexts, generateFailedJobLogs, withLinkHistory } from "@/lib/hccl-diagnose";
import { rankscope } from "@/test/cli";
import { formatDiagnosis } from "./commands/diagnose";

let root: string;
const job = generateFailedJobLogs({ phase: "execute", servers: 2, devicesPerServer: 4, culpritRank: 5 });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "rankscope-diagnose-"));
  for (const file of job.files()) {
    await mkdir(dirname(join(root, "job", file.path)), { recursive: true });
    await writeFile(join(root, "job", file.path), file.text);
  }
  await writeFile(join(root, "job", "core.1234"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 0]));
  await writeFile(join(root, "hccl.json"), job.rankTable);
  execFileSync("tar", ["czf", join(root, "job.tar.gz"), "-C", join(root, "job"), "."]);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("rankscope diagnose", () => {
  it("prints the golden text report for a job directory and its rank table", async () => {
    const result = await rankscope(["diagnose", join(root, "job"), "--rank-table", join(root, "hccl.json")], { [join(root, "hccl.json")]: job.rankTable });
    expect(result.status).toBe(1);
    const golden = await readFile(new URL("./golden/diagnose-execute.txt", import.meta.url), "utf8");
    expect(result.stdout.replaceAll(root, "<tmp>")).toBe(golden);
  });

  it("reads a .tar.gz of the same logs to the same JSON verdict", async () => {
    const result = await rankscope(["diagnose", join(root, "job.tar.gz"), "--format", "json"]);
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.phase).toBe("execute");
    expect(report.suspects[0]).toMatchObject({ kind: "rank", rank: 5, serverId: "node_1", deviceId: 1 });
    expect(result.stderr).toContain("core.1234: binary content");
  });

  it("diagnoses a pasted excerpt from standard input, in Chinese", async () => {
    const excerpt = "[ERROR] HCCL(2717288,python3):2025-07-23-03:47:57.070.463 [hccl_socket.cc:100] [2717288][HcclSocket][Listen] socket type[1], listen on ip[192.168.20.160] and specific port[16666] fail. Please check the port status and whether the port is been using by other process.\n";
    const result = await rankscope(["diagnose", "-", "--lang", "zh"], {}, excerpt);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("阶段：端口被占用");
    expect(result.stdout).toContain("<stdin>:1:");
  });

  it("exits 0 when no HCCL failure is recognised and 2 for a missing log", async () => {
    expect((await rankscope(["diagnose", "-"], {}, "all good\n")).status).toBe(0);
    const missing = await rankscope(["diagnose", join(root, "nope.log")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("ENOENT");
  });

  it("prints an error CQE's link-down history under its suspect, in either language", () => {
    const cqe = "Execution_Error_ROCE_CQE(EI0013): An error CQE occurred during operator execution. Local information: server 172.16.0.1, device ID 3, device IP 10.20.13.9. Peer information: server 172.16.0.2, device ID 3, device IP 10.20.13.5.\n";
    const event = { id: "e1", nic: "10.20.13.5", die: "node-2/3", target: "die" as const, kind: "roce-link-down", code: "81078603", level: "NotHandleFault", beganAt: "2026-03-13T06:54:40.000Z", endedAt: "2026-03-13T06:55:20.000Z" };
    const report = withLinkHistory(diagnoseTexts([{ path: "worker.log", text: cqe }]), { from: "2026-03-13T05:00:00.000Z", to: "2026-03-13T07:10:00.000Z", events: [event], unplaced: [] });
    const text = formatDiagnosis(report, "en");
    expect(text).toContain("Network fault events of both NICs 2026-03-13T05:00:00.000Z – 2026-03-13T07:10:00.000Z:\n");
    expect(text).toContain("2026-03-13T06:54:40.000Z roce-link-down 81078603 die node-2/3 (NIC 10.20.13.5) → 2026-03-13T06:55:20.000Z");
    const quiet = formatDiagnosis(withLinkHistory(diagnoseTexts([{ path: "worker.log", text: cqe }]), { from: "2026-03-13T05:00:00.000Z", to: "2026-03-13T07:10:00.000Z", events: [], unplaced: [] }), "zh");
    expect(quiet).toContain("两端网卡的网络故障事件 2026-03-13T05:00:00.000Z – 2026-03-13T07:10:00.000Z: 无");
  });
});
