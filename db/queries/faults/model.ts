import type { FaultProblem } from "@/lib/faults/errors";
import type { FaultLevel } from "@/lib/faults/levels";
import type { FaultKind, FaultSource, TargetKind } from "@/lib/faults/model";

/** The shapes ingestion passes between its steps (prepare → insert → judge) and answers with. */

export type ItemStatus = "created" | "closed" | "unchanged" | "invalid";

export interface ItemResult {
  index: number;
  status: ItemStatus;
  id?: string;
  /** code (API category), English message, path, and the reason + params the console shows (lib/faults/errors.ts). */
  error?: FaultProblem;
}

export interface IngestResult {
  /** True when anything was written. */
  changed: boolean;
  counts: Record<ItemStatus, number>;
  items: ItemResult[];
}

/** A row ready to insert: target resolved, id derived, level to be decided by the rules. */
export interface PreparedEvent {
  index: number;
  id: string;
  clusterId: number;
  targetKind: TargetKind;
  targetKey: string;
  seriesKey: string;
  superPodRef: number | null;
  serverRef: number | null;
  npuIndex: number | null;
  deviceRef: number | null;
  peerDeviceRef: number | null;
  kind: FaultKind;
  source: FaultSource;
  code: string | null;
  phase: string | null;
  reportedLevel: FaultLevel;
  beganAt: number;
  endedAt: number | null;
  job: string | null;
  rankTable: string | null;
  rank: number | null;
  message: string | null;
  raw: unknown;
}

/** An end event: closes the open event of its series. */
export interface PreparedEnd {
  index: number;
  clusterId: number;
  seriesKey: string;
  endedAt: number;
}

/** What a change of a cluster's faults tells listeners (NOTIFY on faultChannel; server/faults/notifications.ts). */
export interface FaultNotice {
  clusterId: number;
  slug: string;
  changed: number;
  at: number;
  /** The id of the transaction that made the change (`pg_current_xact_id()`, text), added as it is sent. */
  xid?: string;
}

/** Epoch ms as ISO 8601 for timestamptz parameters. */
export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
