import { faultLevelInfo, type FaultLevel } from "@/lib/faults/levels";

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
