import type { FaultLevel } from "./levels";

/**
 * The fault event model. One row per event a source reported (a link went down, a chip raised a code, HCCL timed
 * out, a job was rescheduled); an event has a begin and, once known, an end. Sources: shared/seeds/001_*.txt
 * (parameter-plane network faults, 灵衢 bus-device faults, device-info ConfigMap) and 002_*.txt (HCCL phases).
 */
export const faultKinds = [
  "gateway-probe-failure",
  "roce-link-down",
  "npu-network-fault",
  "bus-device-fault",
  "hccs-fault",
  "npu-chip-fault",
  "node-fault",
  "hccl-error",
  "job-rescheduled",
] as const;
export type FaultKind = (typeof faultKinds)[number];

/** Kinds the seed's duration rule watches (gateway probe failure, link down): "NPU network faults". */
export const networkKinds: readonly FaultKind[] = ["gateway-probe-failure", "roce-link-down", "npu-network-fault"];

export const faultSources = ["device-plugin", "device-info-cm", "hccl-log", "scheduler", "simulator", "csv-import", "api"] as const;
export type FaultSource = (typeof faultSources)[number];

/** `switch`: one of a server's node-side 灵衢 bus chips, as SwitchInfoCfg names it (lib/fabric/switch-faults.ts). */
export const targetKinds = ["cluster", "super-pod", "server", "npu", "die", "link", "switch"] as const;
export type TargetKind = (typeof targetKinds)[number];

/** HCCL's three phases (shared/seeds/002_*.txt; lib/faults/hccl-phases.ts). */
export const hcclPhaseIds = ["communicator-init", "operator-loading", "execution"] as const;
export type HcclPhaseId = (typeof hcclPhaseIds)[number];

/** Job rescheduling granularity (seed 001: "Job级别重调度、Pod级别重调度、进程级别重调度"). */
export const rescheduleScopes = ["job", "pod", "process"] as const;
export type RescheduleScope = (typeof rescheduleScopes)[number];

/** Which rule decided an event's effective level (stored with the event and shown beside it). */
export const escalationRules = [
  "reported",
  "within-fault-timeout",
  "fault-duration",
  "fault-frequency",
] as const;
export type EscalationRule = (typeof escalationRules)[number];

/** The level a kind gets when its source does not say. */
export const defaultLevelByKind: Record<FaultKind, FaultLevel> = {
  "gateway-probe-failure": "NotHandleFault",
  "roce-link-down": "NotHandleFault",
  "npu-network-fault": "NotHandleFault",
  "bus-device-fault": "SeparateNPU",
  "hccs-fault": "SeparateNPU",
  "npu-chip-fault": "RestartNPU",
  "node-fault": "SeparateNPU",
  "hccl-error": "RestartBusiness",
  "job-rescheduled": "RestartBusiness",
};

/** Fault codes whose meaning the console knows (kept as the hex strings the device reports); others are kept as-is. */
export const knownFaultCodes: Record<string, { kind: FaultKind; meaning: { en: string; zh: string } }> = {
  "81078603": { kind: "roce-link-down", meaning: { en: "RoCE port link down (Up→Down)", zh: "RoCE 网口 Link 状态 Up→Down" } },
  "81078605": { kind: "npu-network-fault", meaning: { en: "Some lanes of a RoCE port faulty", zh: "RoCE 网口部分 lane 故障" } },
  "8107800D": { kind: "npu-network-fault", meaning: { en: "Network port abnormal", zh: "网口异常" } },
  "81078607": { kind: "roce-link-down", meaning: { en: "UBOE port down", zh: "UBOE 端口 down" } },
  "81B18603": { kind: "bus-device-fault", meaning: { en: "UB port link Up→Down", zh: "UB 端口 Link Up→Down" } },
  "8C1F8608": { kind: "npu-network-fault", meaning: { en: "Device CQE error", zh: "Device 侧 CQE 错误" } },
  "4C1F8608": { kind: "npu-network-fault", meaning: { en: "Host CQE error", zh: "Host 侧 CQE 错误" } },
  "8C1F860B": { kind: "hccl-error", meaning: { en: "HCCL operator retry failed", zh: "HCCL 算子重执行失败" } },
  "80E18402": { kind: "npu-chip-fault", meaning: { en: "NPU chip fault", zh: "NPU 芯片故障" } },
  EI0006: { kind: "hccl-error", meaning: { en: "HCCL connection set-up timed out", zh: "HCCL 建链超时" } },
  EI0002: { kind: "hccl-error", meaning: { en: "HCCL notify wait timed out", zh: "HCCL Notify Wait 超时" } },
};

/** Hex device codes are stored upper-case (as faultCode.json writes them); HCCL codes (EIxxxx) as they are. */
export function normaliseCode(code: string | null | undefined): string | null {
  if (code === null || code === undefined) return null;
  const trimmed = code.trim();
  if (trimmed === "") return null;
  return /^(0x)?[0-9a-f]+$/i.test(trimmed) ? trimmed.replace(/^0x/i, "").toUpperCase() : trimmed;
}

/** Where an event happened, named as in the inventory (server id, device id = die's physical id). */
export interface FaultTarget {
  kind: TargetKind;
  superPodId?: string | null;
  serverId?: string | null;
  npuIndex?: number | null;
  deviceId?: number | null;
  /** For a link: the other die. */
  peer?: { serverId: string; deviceId: number } | null;
  /** For a switch: the chip's SwitchChipId on its server. */
  chipId?: number | null;
}

/** A stable text key for a target: the same place always gives the same key. */
export function targetKey(target: FaultTarget): string {
  switch (target.kind) {
    case "cluster":
      return "cluster";
    case "super-pod":
      return `pod:${target.superPodId ?? ""}`;
    case "server":
      return `server:${target.serverId ?? ""}`;
    case "npu":
      return `npu:${target.serverId ?? ""}/${target.npuIndex ?? ""}`;
    case "die":
      return `die:${target.serverId ?? ""}/${target.deviceId ?? ""}`;
    case "link": {
      const a = `${target.serverId ?? ""}/${target.deviceId ?? ""}`;
      const b = target.peer ? `${target.peer.serverId}/${target.peer.deviceId}` : "";
      return `link:${[a, b].sort().join("~")}`;
    }
    case "switch":
      return `switch:${target.serverId ?? ""}/${target.chipId ?? ""}`;
  }
}

/**
 * The switch chips a server's SwitchInfoCfg can name: the 灵衢 DCMI driver keeps a table of NUM_CHIP = 7 chips per
 * node (lib/fabric/sources.ts lqdcmiHeader). Their target keys belong to the server's scope (timeline filter, details).
 */
export const reportableSwitchChips = 7;

export function switchTargetKeys(serverId: string): string[] {
  return Array.from({ length: reportableSwitchChips }, (_, chipId) => targetKey({ kind: "switch", serverId, chipId }));
}
