/**
 * How the diagnoser reads logs, whatever they say: unknown lines, text and bytes split anywhere, over-long lines, a
 * file's speaker from its path, rank lists and the line shapes it knows.
 */
import { describe, expect, it } from "vitest";
import { diagnoseTexts, generateFailedJobLogs, LogDiagnoser } from "./index";
import { identityFromPath } from "./identity";
import { parseRankList, readLine } from "./patterns";

describe("reading", () => {
  it("keeps and counts lines it does not know, and never fails on them", () => {
    const report = diagnoseTexts([{ path: "notes.txt", text: "hello\n\u0000\u0001 binary junk ]]]\n{\"not\": \"a log\"}\n" }]);
    expect(report.phase).toBe("unknown");
    expect(report.stats).toEqual({ files: 1, lines: 3, unknownLines: 3, errorLines: 0 });
  });

  it("streams: lines split across chunks and CRLF endings read the same as whole text", () => {
    const job = generateFailedJobLogs({ phase: "execute", servers: 2, devicesPerServer: 4, culpritRank: 5 });
    const files = [...job.files()];
    const whole = diagnoseTexts(files, { rankTable: job.rankTable });
    const streaming = new LogDiagnoser({ rankTable: job.rankTable });
    for (const file of files) {
      streaming.addFile(file.path);
      const text = file.text.replaceAll("\n", "\r\n");
      for (let offset = 0; offset < text.length; offset += 37) streaming.addChunk(text.slice(offset, offset + 37));
    }
    expect(streaming.finish()).toEqual(whole);
  });

  it("reads raw bytes split anywhere, even inside a Chinese character, the same as text", () => {
    const job = generateFailedJobLogs({ phase: "load", servers: 2, devicesPerServer: 4, culpritRank: 2 });
    const files = [...job.files()].map((file) => ({ ...file, text: `${file.text}[ERROR] 训练进程异常退出 (PID:1, Device:0, RankID:0) 日志结束\r\n` }));
    const whole = diagnoseTexts(files, { rankTable: job.rankTable });
    const streaming = new LogDiagnoser({ rankTable: job.rankTable });
    for (const file of files) {
      streaming.addFile(file.path);
      const bytes = new TextEncoder().encode(file.text);
      for (let offset = 0; offset < bytes.length; offset += 5) streaming.addBytes(bytes.subarray(offset, offset + 5));
    }
    expect(streaming.finish()).toEqual(whole);
  });

  it("holds at most 64 KiB of a line without a newline, in bytes or text, and reads the next line whole", () => {
    const portLine = "[ERROR] HCCL(2717288,python3):2025-07-23-03:47:57.070.463 [hccl_socket.cc:100] [2717288][HcclSocket][Listen] socket type[1], listen on ip[192.168.20.160] and specific port[16666] fail.\n";
    const chunk = new Uint8Array(256 * 1024).fill(65);
    const bytes = new LogDiagnoser();
    bytes.addFile("binary-ish.log");
    for (let i = 0; i < 16; i++) bytes.addBytes(chunk);
    expect((bytes as unknown as { pendingLength: number }).pendingLength).toBe(64 * 1024);
    bytes.addBytes(new TextEncoder().encode(`tail\n${portLine}`));
    const text = new LogDiagnoser();
    text.addFile("text.log");
    for (let i = 0; i < 16; i++) text.addChunk("A".repeat(256 * 1024));
    expect((text as unknown as { pending: string }).pending.length).toBe(64 * 1024);
    text.addChunk(`tail\n${portLine}`);
    for (const report of [bytes.finish(), text.finish()]) {
      expect(report.phase).toBe("port_in_use");
      expect(report.suspects[0]!.evidence[0]).toMatchObject({ line: 2 });
      expect(report.stats.lines).toBe(2);
    }
  });

  it("finds a file's speaker in its path when its content does not say", () => {
    expect(identityFromPath("job-7/node-3/rank_12/plog-1_2.log")).toMatchObject({ rank: 12, serverId: "node-3" });
    expect(identityFromPath("logs/172.16.0.9/device-5/device-5_2025.log")).toMatchObject({ deviceId: 5, hostIp: "172.16.0.9" });
    expect(identityFromPath("plog-123_20250101.log")).toEqual({});
  });

  it("reads rank lists as the root and the agents print them", () => {
    expect(parseRankList("[0000000000000000],[0000000000000002],[0000000000000004];")).toEqual([0, 2, 4]);
    expect(parseRankList("1,3,5,7,")).toEqual([1, 3, 5, 7]);
    expect(parseRankList("16-19")).toEqual([16, 17, 18, 19]);
  });

  it("knows a plog line, a torch_npu screen line and a vLLM worker line", () => {
    expect(readLine("[INFO] RUNTIME(1,python):2025-01-01-00:00:00.000.000 [device.cc:1] ok").known).toBe(true);
    expect(readLine("[ERROR] 2025-04-08-18:07:20 (PID:1292363, Device:1, RankID:1) ERR01100 OPS call acl api failed.").identity).toMatchObject({ rank: 1, deviceId: 1 });
    expect(readLine("(VllmWorker rank=3 pid=234357) ERROR 09-26 01:47:48 [multiproc_executor.py:546] WorkerProc hit an exception.").speakerRank).toBe(3);
  });
});
