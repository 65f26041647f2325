/**
 * MindCluster's fault levels (Ascend Device Plugin `faultCode.json` categories, plus the escalation-only
 * ManuallySeparateNPU), with what each does to a job. Source: MindCluster docs, ascend_device_plugin.md,
 * "Custom Chip Faults" table 1, summarised in shared/spec/ascend-facts.md §5.
 */
export const faultLevels = [
  "NotHandleFault",
  "SubHealthFault",
  "PreSeparateNPU",
  "RestartRequest",
  "RestartBusiness",
  "FreeRestartNPU",
  "RestartNPU",
  "SeparateNPU",
  "ManuallySeparateNPU",
] as const;
export type FaultLevel = (typeof faultLevels)[number];

/** The console's health vocabulary; each level maps to one, so colours mean the same everywhere. */
export type HealthTone = "healthy" | "degraded" | "faulty" | "unknown";

export interface Bilingual {
  en: string;
  zh: string;
}

export interface FaultLevelInfo {
  level: FaultLevel;
  tone: HealthTone;
  effect: Bilingual;
  handling: Bilingual;
}

export const faultLevelInfo: Record<FaultLevel, FaultLevelInfo> = {
  NotHandleFault: {
    level: "NotHandleFault",
    tone: "degraded",
    effect: { en: "Does not affect the job", zh: "不影响业务" },
    handling: { en: "None; recorded only", zh: "不处理，仅记录" },
  },
  SubHealthFault: {
    level: "SubHealthFault",
    tone: "degraded",
    effect: { en: "Sub-healthy: the job may run slower", zh: "亚健康：业务可能变慢" },
    handling: { en: "As the job's subHealthyStrategy says", zh: "按任务 YAML 的 subHealthyStrategy 处理" },
  },
  PreSeparateNPU: {
    level: "PreSeparateNPU",
    tone: "degraded",
    effect: { en: "No effect now; no new jobs are scheduled onto the chip", zh: "暂不影响业务，但不再向该芯片调度新任务" },
    handling: { en: "Pre-isolate the chip", zh: "预隔离芯片" },
  },
  RestartRequest: {
    level: "RestartRequest",
    tone: "faulty",
    effect: { en: "Affects execution: re-run the request", zh: "影响执行：重新执行请求" },
    handling: { en: "Isolate the chip and reschedule; gracefully, re-run the request", zh: "隔离芯片并重调度；优雅容错时重新执行请求" },
  },
  RestartBusiness: {
    level: "RestartBusiness",
    tone: "faulty",
    effect: { en: "Affects execution: re-run the job", zh: "影响执行：重新执行业务" },
    handling: { en: "Isolate the chip and reschedule; gracefully, re-run the job", zh: "隔离芯片并重调度；优雅容错时重新执行业务" },
  },
  FreeRestartNPU: {
    level: "FreeRestartNPU",
    tone: "faulty",
    effect: { en: "Affects execution: reset the chip when it is idle", zh: "影响执行：芯片空闲时复位" },
    handling: { en: "Wait until idle, then reset the chip", zh: "等待空闲后复位芯片" },
  },
  RestartNPU: {
    level: "RestartNPU",
    tone: "faulty",
    effect: { en: "Affects execution: reset the chip now", zh: "影响执行：立即复位芯片" },
    handling: { en: "Stop the job, reset the chip, run the job again", zh: "停止业务、复位芯片后重新执行" },
  },
  SeparateNPU: {
    level: "SeparateNPU",
    tone: "faulty",
    effect: { en: "Unrecoverable: the chip is isolated", zh: "不可恢复：隔离芯片" },
    handling: { en: "Isolate the chip and reschedule the job", zh: "隔离芯片并重调度业务" },
  },
  ManuallySeparateNPU: {
    level: "ManuallySeparateNPU",
    tone: "faulty",
    effect: { en: "Reached only by escalation: the same fault recurred too often", zh: "仅由故障升级产生：同一故障频繁出现" },
    handling: {
      en: "Stays isolated until an operator releases it or the release window passes",
      zh: "保持隔离，直到运维人员解除或超过解除时间窗",
    },
  },
};
