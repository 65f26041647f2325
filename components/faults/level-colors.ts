import { faultLevelInfo, type FaultLevel } from "@/lib/faults/levels";
import type { FaultKind } from "@/lib/faults/model";

/**
 * One colour per level inside its meaning family (shared/spec/ui.md): amber shades for the degraded levels, reds
 * deepening with severity for the faulty ones. The timeline, its legend and the tables use these.
 */
export const levelColors: Record<FaultLevel, string> = {
  NotHandleFault: "#f6c445",
  SubHealthFault: "#e8a317",
  PreSeparateNPU: "#d46b08",
  RestartRequest: "#ff7875",
  RestartBusiness: "#f5222d",
  FreeRestartNPU: "#e0282e",
  RestartNPU: "#cf1322",
  SeparateNPU: "#a8071a",
  ManuallySeparateNPU: "#5c0011",
};

export const toneOf = (level: FaultLevel) => faultLevelInfo[level].tone;

/**
 * Fault kinds are categories, not health: a categorical palette of blues, purples and teals, kept clear of the
 * green, amber and red that mean healthy, degraded and faulty.
 */
export const kindColors: Record<FaultKind, string> = {
  "gateway-probe-failure": "#91caff",
  "roce-link-down": "#1677ff",
  "npu-network-fault": "#003eb3",
  "bus-device-fault": "#9254de",
  "hccs-fault": "#531dab",
  "npu-chip-fault": "#13a8a8",
  "node-fault": "#006d75",
  "hccl-error": "#eb2f96",
  "job-rescheduled": "#8c8c8c",
};
