/**
 * The diagnosis on log text in each shape it understands (excerpts of public threads, cited in patterns.ts), with the
 * phase and culprit each must give.
 */
import { describe, expect, it } from "vitest";
import { generateFromTemplate, writeRankTable } from "../rank-table";
import { diagnoseTexts, generateFailedJobLogs } from "./index";

const table = (servers: number) => writeRankTable(generateFromTemplate({ version: "1.0", serversPerSuperPod: servers, npusPerServer: 8, diesPerNpu: 1 }));

describe("pasted excerpts", () => {
  it("port in use on the NPU side outranks the link timeouts it causes (vllm-ascend#1955)", () => {
    const report = diagnoseTexts([
      {
        path: "pasted",
        text: `[ERROR] HCCL(2717288,python3):2025-07-23-03:47:57.070.463 [hccl_socket.cc:100] [2717288][HcclSocket][Listen] socket type[1], listen on ip[192.168.20.160] and specific port[16666] fail. Please check the port status and whether the port is been using by other process.
[ERROR] HCCL(2717288,python3):2025-07-23-03:47:57.070.466 [hccl_socket_manager.cc:54] [2717288][ServerInit]call trace: hcclRet -> 19
[ERROR] HCCL(2717288,python3):2025-07-23-03:49:57.177.194 [hccl_socket_manager.cc:778] [2734049][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[12] timeout[120]
`,
      },
    ]);
    expect(report.phase).toBe("port_in_use");
    expect(report.suspects[0]).toMatchObject({ kind: "port", port: 16666, deviceIp: "192.168.20.160" });
    expect(report.suspects[0]!.evidence[0]).toMatchObject({ file: "pasted", line: 1 });
    expect(report.summary.zh).toContain("端口");
  });

  it("a host port already bound (EI0019) names the host address", () => {
    const report = diagnoseTexts([
      { path: "stdout", text: "[PID: 2267203] 2025-11-21-11:38:29.575.404 Communication_Error_Bind_IP_Port(EI0019): Failed to enable listening for the host network adapter socket.Reason: The IP address 192.168.1.100 and port 50001 have already been bound.\n" },
    ]);
    expect(report.phase).toBe("port_in_use");
    expect(report.suspects[0]).toMatchObject({ kind: "port", port: 50001, hostIp: "192.168.1.100" });
  });

  it("an error CQE names the NICs at both ends (vllm-ascend#7384)", () => {
    const report = diagnoseTexts([
      {
        path: "worker.log",
        text: "[rank11]:[E313 06:55:06.502248200 compiler_depend.ts:1693] [Rank 1] HCCL watchdog thread terminated with exception: [PID: 335] 2026-03-13-06:55:06.896.485 Execution_Error_ROCE_CQE(EI0013): An error CQE occurred during operator execution. Local information: server xx.xx.xx.199, device ID 3, device IP 10.20.13.9. Peer information: server xx.xx.xx.195, device ID 3, device IP 10.20.13.5.\n",
      },
    ]);
    expect(report.phase).toBe("execute");
    expect(report.suspects[0]).toMatchObject({ kind: "link", rank: 11, deviceId: 3, deviceIp: "10.20.13.9", peer: { deviceIp: "10.20.13.5" } });
  });

  it("the heartbeat's error CQE line is matched to ranks through the rank table (hicann/hccl error_cqe_report_EI0013.md)", () => {
    const report = diagnoseTexts(
      [
        {
          path: "node_0/debug/plog/plog-2040034_20250915083800000.log",
          text: "[ERROR] HCCL(2040034,alltoall_test):2025-09-15-08:38:13.607.432 [heartbeat.cc:1229] [2040666][TaskExecStage][HeartbeatAbnormal][ROCE CQE ERROR]cqe error status[12], time:[2025-09-15 08:38:12.776654],localInfo{server[172.16.0.0],deviceId[2],deviceIp[10.0.0.2]}, remoteIP{server[172.16.0.1],deviceId[5],deviceIp[10.0.1.5]}\n",
        },
      ],
      { rankTable: table(2) },
    );
    expect(report.phase).toBe("execute");
    expect(report.suspects[0]).toMatchObject({ kind: "link", rank: 2, deviceIp: "10.0.0.2", peer: { rank: 13, deviceIp: "10.0.1.5" } });
  });

  it("a notify-wait timeout points at the remote rank it waited for (vllm-ascend#3413)", () => {
    const report = diagnoseTexts([
      {
        path: "pasted",
        text: `[ERROR] 2025-10-11-15:09:34 (PID:2969, Device:0, RankID:101) ERR00100 PTA call acl api failed.
EI0002: [PID: 2969] 2025-10-11-15:09:34.713.335 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank: [24]. base information: [streamID:[109], taskID[38], taskType[Notify Wait], tag[AllReduce_group_name_1654NHRAllReduceComm_device], AlgType(level 0-1-2):[ring-NHR-NHR].]. task information: [notify id:[0x0000000000000213], stage:[0], remote rank:[24]]. group information: [group:[group_name_1654], user define information[Unspecified], rankSize[32], rankId[25 24]]
        Possible Cause: 1. An exception occurs during the execution on some NPUs in the cluster.
`,
      },
    ]);
    expect(report.phase).toBe("execute");
    expect(report.suspects[0]).toMatchObject({ kind: "rank", rank: 24 });
    expect(report.ranks).toEqual([expect.objectContaining({ rank: 101, deviceId: 0, status: "timeout" })]);
  });

  it("the runtime's fftsplus task timeout is an execution timeout on the device it names (Ascend/pytorch#54)", () => {
    const report = diagnoseTexts([
      {
        path: "node_0/lmdeploy.log",
        text: `RuntimeError: ACL stream synchronize failed.
EI9999: Inner Error!
EI9999: 2024-10-21-10:42:00.358.410  The error from device(chipId:3, dieId:0), serial number is 9, hccl fftsplus task timeout occurred during task execution, stream_id:5, sq_id:5, task_id:38827, stuck notify num:1, timeout:30min(default).[FUNC:ProcessStarsHcclFftsPlusTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1435]
`,
      },
    ]);
    expect(report.phase).toBe("execute");
    expect(report.stats.unknownLines).toBe(0);
  });

  it("torch_npu's watchdog timeout is an execution timeout (vllm-ascend#382)", () => {
    const report = diagnoseTexts([
      { path: "pasted", text: "[rank1]:[E324 13:00:25.428029551 compiler_depend.ts:574] [Rank 1] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=196, OpType=ALLREDUCE, Timeout(ms)=3600000) ran for 3600185 milliseconds before timing out.\n" },
    ]);
    expect(report.phase).toBe("execute");
    expect(report.ranks[0]).toMatchObject({ rank: 1, status: "timeout" });
  });

  it("a failed HcclCommInitRootInfo is an initialisation failure (gpustack#2021)", () => {
    const report = diagnoseTexts([
      { path: "pasted", text: "[ERROR] HCCL(36035,mindie_llm_backend_connector):2025-05-13-02:25:58.068.817 [op_base.cc:974][36818][Init][CommRootInfoConfig]errNo[0x0000000005000002]HcclCommInitRootInfo failed.\n" },
    ]);
    expect(report.phase).toBe("init");
  });

  it("EJ0001 means the previous training process still holds the NPU (LlamaFactory#3839)", () => {
    const report = diagnoseTexts([
      {
        path: "pasted",
        text: `RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64
[ERROR] 2024-05-21-11:57:54 (PID:927000, Device:3, RankID:3) ERR02200 DIST call hccl api failed.
EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the HCCP process. Reason: Maybe the last training process is running.
        Solution: Wait for 10s after killing the last training process and try again.
`,
      },
    ]);
    expect(report.phase).toBe("port_in_use");
    expect(report.suspects[0]).toMatchObject({ kind: "port", rank: 3, deviceId: 3 });
    expect(report.suspects[0]!.reason.en).toContain("previous training process");
  });

  it("a runtime task timeout behind a pdsh host prefix is an execution timeout (Ascend/pytorch#43)", () => {
    const report = diagnoseTexts([
      {
        path: "pasted",
        text: `worker-1: EH9999: Inner Error!
worker-1:         rtDeviceSynchronize execute failed, reason=[task timeout][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
worker-1: EH9999: 2024-07-03-11:28:40.451.641  wait for compute device to finish failed, runtime result = 107020.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
`,
      },
    ]);
    expect(report.phase).toBe("execute");
    expect(report.stats.unknownLines).toBe(0);
  });

  it("msrun's worker_<rank>.log names its rank", () => {
    const report = diagnoseTexts([
      { path: "output/msrun_log/worker_5.log", text: "EI0006: [PID: 1] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time.\n" },
      { path: "output/msrun_log/worker_6.log", text: "2025-04-08 18:05:00 INFO step 1 loss 2.3\n" },
    ]);
    expect(report.phase).toBe("load");
    expect(report.ranks.map((rank) => [rank.rank, rank.status])).toEqual([
      [5, "timeout"],
      [6, "ok"],
    ]);
    expect(report.suspects[0]).toMatchObject({ rank: 6 });
  });

  it("EI0006 alone is an operator-loading timeout (vllm-ascend#486)", () => {
    const report = diagnoseTexts([
      {
        path: "pasted",
        text: "[rank1]: EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the reason for the rank being stuck\n",
      },
    ]);
    expect(report.phase).toBe("load");
    expect(report.ranks[0]).toMatchObject({ rank: 1, status: "timeout" });
    expect(report.nextSteps.length).toBeGreaterThan(0);
  });
});

describe("whole jobs", () => {
  it("initialisation: the ranks the root never heard from, grouped by their server (hicann/hccl 3-node case)", () => {
    const agentLines = (rank: number) =>
      `[INFO] HCCL(${7000 + rank},all_reduce_test):2025-03-19-04:14:13.000.000 [op_base.cc:1292] [1]Entry-HcclCommInitRootInfoInner:ranks[24], rank[${rank}], rootinfo: host ip[172.16.0.0] port[60000] nicDeploy[1] identifier[x], deviceLogicId[${rank % 8}]
[ERROR] HCCL(${7000 + rank},all_reduce_test):2025-03-19-04:16:13.978.979 [topoinfo_exchange_agent.cc:190] [7988][InitGroupStage][RanktableDetect]topo exchange agent get socket timeout! timeout[120]
[ERROR] HCCL(${7000 + rank},all_reduce_test):2025-03-19-04:16:13.978.995 [topoinfo_exchange_agent.cc:41] [7988][TopoInfoExchangeAgent][Setup]TopoExchangeAgent: connect server[172.16.0.0 : 60000] failed
`;
    const files = [
      {
        path: "node_0/debug/plog/plog-1041081_20251121012000000.log",
        text: `[INFO] HCCL(1041081,all_reduce_test):2025-11-21-01:18:00.000.000 [op_base.cc:1292] [1]Entry-HcclCommInitRootInfoInner:ranks[24], rank[0], rootinfo: host ip[172.16.0.0] port[60000] nicDeploy[1] identifier[x], deviceLogicId[0]
[ERROR] HCCL(1041081,all_reduce_test):2025-11-21-01:20:01.624.966 [topoinfo_exchange_server.cc:314] [1041362][InitGroupStage][RanktableDetect]topo exchange server get socket timeout! timeout[120 s]
[ERROR] HCCL(1041081,all_reduce_test):2025-11-21-01:20:01.625.145 [topoinfo_exchange_server.cc:517] [1041362][InitGroupStage][DisplayConnectionedRank]connected rankinfo[LINE 0]: ${Array.from({ length: 16 }, (_, rank) => `[${String(rank).padStart(16, "0")}]`).join(",")};
`,
      },
      { path: "node_1/debug/plog/plog-1041085_20251121012000000.log", text: `[ERROR] HCCL(1041085,all_reduce_test):2025-11-21-01:20:01.630.122 [topoinfo_exchange_base.cc:145] [1041085][InitGroupStage][RanktableDetect]TopoDetect ERROR occur !!! fault_type[1], fault_info["Failed to connect agent[16-23]"]\n` },
      ...Array.from({ length: 8 }, (_, index) => ({ path: `node_2/debug/plog/plog-${7016 + index}_20250319041400000.log`, text: agentLines(16 + index) })),
    ];
    const report = diagnoseTexts(files, { rankTable: table(3) });
    expect(report.phase).toBe("init");
    expect(report.suspects[0]).toMatchObject({ kind: "link", serverId: "node_2", hostIp: "172.16.0.2" });
    const ranks = report.suspects.filter((suspect) => suspect.kind === "rank").map((suspect) => suspect.rank);
    expect(ranks.sort((a, b) => a! - b!)).toEqual([16, 17, 18, 19, 20, 21, 22, 23]);
  });

  it("operator loading: the one rank without a link timeout is the culprit", () => {
    const timedOut = (rank: number, peer: number) => ({
      path: `node_0/debug/plog/plog-${100 + rank}_20260318103000000.log`,
      text: `[ERROR] HCCL(${100 + rank},python3):2026-03-18-10:33:52.113.403 [hccl_socket_manager.cc:797] [18744][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[${rank}] timeout[120 s]
[ERROR] HCCL(${100 + rank},python3):2026-03-18-10:33:52.113.646 [hccl_socket_manager.cc:623] [18744] _________________________LINK_ERROR_INFO___________________________
[ERROR] HCCL(${100 + rank},python3):2026-03-18-10:33:52.113.653 [hccl_socket_manager.cc:626] [18744] | dest_ip(user_rank) | dest_port | src_ip(user_rank) | src_port | MyRole | Status | TlsStatus |
[ERROR] HCCL(${100 + rank},python3):2026-03-18-10:33:52.113.706 [hccl_socket_manager.cc:583] [18744] | 10.0.0.${peer}(${peer}) | 16666 | 10.0.0.${rank}(${rank}) | 3234403008 | client | time out | DISABLE | LinkInfo
`,
    });
    const report = diagnoseTexts(
      [
        timedOut(0, 3),
        timedOut(1, 2),
        timedOut(3, 2),
        { path: "node_0/run/plog/plog-102_20260318103000000.log", text: "[INFO] HCCL(102,python3):2026-03-18-10:31:00.000.000 [op_base.cc:1292] [1]Entry-HcclCommInitRootInfoInner:ranks[4], rank[2], rootinfo: host ip[172.16.0.0] port[60000] nicDeploy[1] identifier[x], deviceLogicId[2]\n" },
      ],
    );
    expect(report.phase).toBe("load");
    expect(report.suspects[0]).toMatchObject({ kind: "rank", rank: 2, deviceId: 2 });
    expect(report.suspects[0]!.confidence).toBeGreaterThanOrEqual(0.9);
    expect(report.ranks.map((rank) => rank.status)).toEqual(["timeout", "timeout", "ok", "timeout"]);
  });

  it("operator loading where every rank timed out and the TLS switches differ: TLS is the suspect", () => {
    const row = (rank: number, peer: number, tls: string) => ({
      path: `rank_${rank}/plog-${rank}_1.log`,
      text: `[ERROR] HCCL(${rank},python3):2026-03-18-10:33:52.113.706 [hccl_socket_manager.cc:583] [18744] | 10.0.0.${peer}(${peer}) | 16666 | 10.0.0.${rank}(${rank}) | 1 | client | time out | ${tls} |\n`,
    });
    const report = diagnoseTexts([row(0, 1, "ENABLE"), row(1, 0, "DISABLE")]);
    expect(report.phase).toBe("load");
    expect(report.suspects[0]).toMatchObject({ kind: "config" });
    expect(report.suspects[0]!.reason.en).toContain("TLS");
  });

  it("a configuration error (hicann/hccl rank_table_field_config_error_EI0004.md) reports the rank table's own findings", () => {
    const broken = table(1).replace('"rank_id": "7"', '"rank_id": "6"');
    const report = diagnoseTexts(
      [{ path: "plog-1_1.log", text: "[ERROR] HCCL(1265,):2025-10-21 07:56:47.198.454 [topoinfo_ranktableConcise.cc:727][15326][InitGroupStage][RanktableCheck]errNo[0x0000000005010001] super_device_id[] is invalid\n" }],
      { rankTable: broken },
    );
    expect(report.phase).toBe("config");
    expect(report.suspects.some((suspect) => suspect.kind === "config" && suspect.reason.en.startsWith("rank table RT"))).toBe(true);
  });

  it.each(["init", "load", "execute"] as const)("the generated %s failure names its culprit first", (phase) => {
    const job = generateFailedJobLogs({ phase, servers: 4, devicesPerServer: 8, culpritRank: 13 });
    const report = diagnoseTexts([...job.files()], { rankTable: job.rankTable });
    expect(report.phase).toBe(phase);
    expect(report.suspects[0]).toMatchObject({ rank: 13, serverId: job.culprit.serverId, deviceId: job.culprit.deviceId });
    expect(report.stats.unknownLines).toBe(0);
  });
});
