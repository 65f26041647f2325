import type { OmittedFindings } from "../report-limits";
import type { RetentionMode } from "./retention";
import type { DeviceInfoSnapshot } from "./device-info";
import type { FaultProblem } from "./errors";
import type { EscalationSettings } from "./escalation";
import type { FaultLevel } from "./levels";
import type { EscalationRule, FaultKind, FaultSource, TargetKind } from "./model";

/** The shapes the fault API answers with (GET /api/v1/fault-events, /stats), shared by server and console. */
export interface TimelineEvent {
  id: string;
  targetKind: TargetKind;
  targetKey: string;
  superPodId: string | null;
  serverId: string | null;
  deviceId: number | null;
  npuIndex: number | null;
  /** A switch fault's bus plane (its lane in the timeline's fabric lane), else null. */
  planeKey: string | null;
  kind: FaultKind;
  source: FaultSource;
  code: string | null;
  phase: string | null;
  reportedLevel: FaultLevel;
  level: FaultLevel;
  rule: EscalationRule;
  ruleAt: number | null;
  releaseAt: number | null;
  episodeId: string;
  beganAt: number;
  endedAt: number | null;
  job: string | null;
  rank: number | null;
  message: string | null;
}

export interface DensityBucket {
  at: number;
  counts: Partial<Record<FaultLevel, number>>;
}

export interface TimelineResult {
  cluster: { id: number; slug: string; name: string };
  from: number;
  to: number;
  events: TimelineEvent[];
  /** Events matching the filters in the window (may exceed `events.length` when truncated). */
  total: number;
  truncated: boolean;
  density: { bucketMs: number; buckets: DensityBucket[] };
}

export interface FaultStatistics {
  from: number;
  to: number;
  byKind: { kind: FaultKind; count: number }[];
  byLevel: { level: FaultLevel; count: number }[];
  /** Mean time to recovery over faults (merged episodes) that began and recovered in the period, ms. */
  mttrMs: number | null;
  recovered: number;
  open: number;
  topServers: { serverId: string; count: number; faultMs: number }[];
  topDies: { serverId: string; deviceId: number; count: number; faultMs: number }[];
  /** The most frequent fault codes (events with a code), with the time their events cover in the period. */
  topCodes: { code: string; count: number; faultMs: number }[];
  /** Per super pod: the share of die-time in the period without a fault of a "faulty" level. */
  availability: { superPodId: string | null; dies: number; faultyDieMs: number; availability: number }[];
}

/** What POST /api/v1/fault-events/device-info answers. */
export interface DeviceInfoResult {
  cluster: string;
  server: string;
  nodeName: string | null;
  updateTime: number;
  checkCode: DeviceInfoSnapshot["checkCodeStatus"];
  /** Each with its English message and the reason + params the console shows in the reader's language. */
  warnings: FaultProblem[];
  /** Warnings past the report cap (lib/report-limits.ts), counted per reason; absent when all are listed. */
  omittedWarnings?: OmittedFindings;
  /** An older snapshot than the one already taken in: nothing was changed. */
  stale: boolean;
  changed: boolean;
  /** A chip fault names its chip (npuName); a 灵衢 switch fault (SwitchInfoCfg) its switch chip and port. */
  opened: {
    id: string;
    npuName: string | null;
    /** A switch fault: the chip and port it names, and the bus plane of that chip (null: not in the fabric). */
    switchPort: { chipId: number; portId: number; assembledCode: string; plane: string | null } | null;
    code: string | null;
    level: string;
  }[];
  closed: string[];
  unchanged: number;
}

/** What GET/PUT /api/v1/fault-events/settings answer: a cluster's escalation rules and retention. */
export interface FaultSettings {
  escalation: EscalationSettings;
  retentionDays: number;
  /** What retention does with events past retentionDays: delete them or move them to fault_event_archive. */
  retentionMode: RetentionMode;
  /** False while the cluster uses MindCluster's defaults. */
  customised: boolean;
  /**
   * What a change must start from (the ETag of GET, If-Match of PUT): "0" for the defaults, else the microsecond
   * time of the last change, so two edits from the same start cannot both win.
   */
  version: string;
  /** When the settings were last changed (ms), null for the defaults. */
  updatedAt: number | null;
}
