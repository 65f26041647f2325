/**
 * Logs pasted in public threads whose root cause the thread (or the fix it led to) states, run through the diagnosis
 * as `rankscope diagnose --format json` runs them: the phase and the culprit must be the thread's.
 */
import { describe, expect, it } from "vitest";
import { diagnoseTexts } from "./index";

describe("public threads with a known root cause", () => {
  it("P and D instances on one machine both listen on NPU port 16666: port in use, that port and address (vllm-ascend#4725)", () => {
    // https://github.com/vllm-project/vllm-ascend/issues/4725: "MoonCake disaggregate prefill fail to start when p and
    // d on same machine due to port conflict". socket type[0] is the device side (hicann/hccl
    // server_node_port_bind_fail_EI0019.md).
    const report = diagnoseTexts([
      {
        path: "prefill.log",
        text: `[ERROR] HCCL(60570,):2025-12-04-14:46:07.911.312 [hccl_socket.cc:106] [60570][HcclSocket][Listen] socket type[0], listen on ip[192.2.2.195] and specific port[16666] fail. Please check the port status and whether the port is being used by other process.
[ERROR] HCCL(60570,):2025-12-04-14:46:07.911.316 [hccl_socket_manager.cc:54] [60570][ServerInit]call trace: hcclRet -> 7
[ERROR] HCCL(60570,):2025-12-04-14:46:07.911.325 [hccl_comm.cc:115] [60570][HcclComm][Init]errNo[0x0000000005000007] hccl initialize failed
[ERROR] HCCL(60570,):2025-12-04-14:46:07.911.327 [op_base.cc:1097] [60570][InitCommRootInfo]errNo[0x0000000005000007] hcclComm init error
[ERROR] HCCP(60570,):2025-12-04-14:46:07.911.347 [rs_socket.c:2930]tid:60570,rs_peer_get_ifnum : param error, g_rs_cb is NULL
`,
      },
    ]);
    expect(report.phase).toBe("port_in_use");
    expect(report.suspects).toHaveLength(1);
    expect(report.suspects[0]).toMatchObject({ kind: "port", port: 16666, deviceIp: "192.2.2.195" });
    expect(report.suspects[0]!.reason.en).toContain("NPU (parameter plane)");
  });

  it("a device outside the visible-device mask, on a Ray worker's screen: configuration, ASCEND_RT_VISIBLE_DEVICES (vllm-ascend#167)", () => {
    // https://github.com/vllm-project/vllm-ascend/issues/167 (multi-machine serving with Ray); the cause, the device
    // mask not holding the worker's device, is what https://github.com/vllm-project/vllm-ascend/pull/10227 detects.
    const report = diagnoseTexts([
      {
        path: "ray-worker.log",
        text: `(RayWorkerWrapper pid=118835) ERROR 02-26 09:45:37 worker_base.py:572]         halGetDeviceInfo get device type version failed , ret:4[FUNC:Init][FILE:config_manager.cpp][LINE:61]
(RayWorkerWrapper pid=118835) ERROR 02-26 09:45:37 worker_base.py:572]         The argument is invalid.Reason: Set visible device failed, invalid device=1, input visible devices:1
(RayWorkerWrapper pid=118835) ERROR 02-26 09:45:37 worker_base.py:572]         rtSetDevice execute failed, reason=[device id error][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
(RayWorkerWrapper pid=118835) ERROR 02-26 09:45:37 worker_base.py:572]         open device 1 failed, runtime result = 107001.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
`,
      },
    ]);
    expect(report.phase).toBe("config");
    expect(report.suspects[0]).toMatchObject({ kind: "config", evidence: [{ file: "ray-worker.log", line: 2 }] });
    expect(report.suspects[0]!.reason.en).toBe("configuration error ASCEND_RT_VISIBLE_DEVICES reported: The argument is invalid.Reason: Set visible device failed, invalid device=1, input visible devices:1");
    expect(report.summary.en).toContain("Most likely culprit: the configuration: configuration error ASCEND_RT_VISIBLE_DEVICES");
    expect(report.nextSteps.some((step) => step.en.includes("ASCEND_RT_VISIBLE_DEVICES") && step.zh.includes("npu-smi info"))).toBe(true);
  });

  it("the same refusal in a plog (RUNTIME module), the message cut free of its prefix (gpustack#3352)", () => {
    // https://github.com/gpustack/gpustack/issues/3352: "the device is unavailable" on an Ascend VM, device 0 asked
    // while the mask shows device 4.
    const report = diagnoseTexts([
      {
        path: "node0/debug/plog/plog-42_20251118093313.log",
        text: `[ERROR] RUNTIME(42,mindie_llm_backend_connector):2025-11-18-09:33:13.673.818 [api_error.cc:2350]58 SetDevice:Set visible device failed, invalid device=0, input visible devices:4
[ERROR] RUNTIME(42,mindie_llm_backend_connector):2025-11-18-09:33:13.673.869 [api_c_device.cc:92]58 rtSetDevice:ErrCode=107001, desc=[device id error], InnerCode=0x7010003
[ERROR] ASCENDCL(42,mindie_llm_backend_connector):2025-11-18-09:33:13.673.913 [device.cpp:54]58 aclrtSetDeviceImpl: open device 0 failed, runtime result = 107001.
`,
      },
    ]);
    expect(report.phase).toBe("config");
    expect(report.suspects[0]!.reason.en).toBe("configuration error ASCEND_RT_VISIBLE_DEVICES reported: SetDevice:Set visible device failed, invalid device=0, input visible devices:4");
    expect(report.stats.unknownLines).toBe(0);
  });
});
