import { describe, expect, it } from "vitest";
import { parseEnvironmentText, recordEnvironment } from "./environment";

describe("recordEnvironment", () => {
  it("keeps HCCL, master address, affinity and device variables from a launch script's exports", () => {
    // The exports of Ascend/MindSpeed-RL examples/r1/deepseekv3/r1_zero_deepseekv3_671b_worker.sh, plus a secret.
    const text = [
      "export CUDA_DEVICE_MAX_CONNECTIONS=1",
      "export HCCL_CONNECT_TIMEOUT=3600",
      "export HCCL_EXEC_TIMEOUT=3600",
      "export HCCL_IF_BASE_PORT=48000",
      "export GLOO_SOCKET_IFNAME=eth0",
      'MASTER_ADDR="10.0.0.1"',
      "MASTER_PORT=6000",
      "export CPU_AFFINITY_CONF=1,npu0:0-1",
      "export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3",
      "export HF_TOKEN=secret",
      "ulimit -n 32768",
    ].join("\n");
    const recorded = recordEnvironment(text);
    expect(recorded.variables).toEqual({
      HCCL_CONNECT_TIMEOUT: "3600",
      HCCL_EXEC_TIMEOUT: "3600",
      HCCL_IF_BASE_PORT: "48000",
      GLOO_SOCKET_IFNAME: "eth0",
      MASTER_ADDR: "10.0.0.1",
      MASTER_PORT: "6000",
      CPU_AFFINITY_CONF: "1,npu0:0-1",
      ASCEND_RT_VISIBLE_DEVICES: "0,1,2,3",
    });
    expect(recorded.ignored).toEqual(["CUDA_DEVICE_MAX_CONNECTIONS", "HF_TOKEN"]);
  });

  it("parses env dumps line by line and skips what is not an assignment", () => {
    expect(parseEnvironmentText("A=1\r\nnot a line\n  export B='x y'")).toEqual({ A: "1", B: "x y" });
  });
});
