/**
 * MindCluster's shipped escalation defaults for a parameter-plane network fault (faultCustomization.json), and the
 * detection cadence the seed describes (shared/seeds/001_*.txt; shared/spec/ascend-facts.md §5).
 */
export const networkFaultDefaults = {
  /** Link down (81078603) or gateway probe failure lasting at most this stays an "NPU network fault". */
  faultTimeoutSeconds: 20,
  /** Longer faults are escalated to this handling. */
  escalatedHandling: "PreSeparateNPU",
  /** A fault counts as recovered only after staying clear this long, so a flapping link is one fault. */
  recoverTimeoutSeconds: 60,
  /** The same code on the same die this many times within the window escalates to ManuallySeparateNPU. */
  frequency: { times: 5, windowSeconds: 86_400, handling: "ManuallySeparateNPU", releaseAfterSeconds: 172_800 },
  /** Each NPU probes its gateway this often. */
  gatewayProbeIntervalSeconds: 2.5,
  /** Without the watchdog a job waits for HCCL's collective timeout (about 30 min); with it, it exits in about 6. */
  stallWithoutWatchdogMinutes: 30,
  stallWithWatchdogMinutes: 6,
} as const;
