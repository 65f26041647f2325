/**
 * The diagnosis report of HCCL failure localisation (issue 14, item 3). The model is the seed
 * shared/seeds/002_*.txt ("HCCL集合通信常见问题定位思路"): find the phase, then the rank that did NOT report a timeout.
 */
import type { Bilingual } from "../faults/levels";

export type { Bilingual };

/** config: rank-table / config parse; init: communicator initialisation (root rank); load: operator loading
 *  (rank-to-rank link set-up); execute: operator execution (notify wait, error CQE); port_in_use: bind failures. */
export type DiagnosisPhase = "config" | "init" | "load" | "execute" | "port_in_use" | "unknown";

export type SuspectKind = "rank" | "link" | "nic" | "port" | "config";

export interface Evidence {
  file: string;
  /** 1-based line number in the file. */
  line: number;
  /** The log line (cut to 500 characters). */
  text: string;
}

export interface Suspect {
  kind: SuspectKind;
  rank?: number;
  deviceId?: number;
  serverId?: string;
  hostIp?: string;
  deviceIp?: string;
  port?: number;
  peer?: { rank?: number; deviceIp?: string };
  /** An error CQE's two NICs, the logging end first (seed 002, 6.3: "重传超次（error cqe）的通信两端IP"). */
  nics?: [NicEnd, NicEnd];
  /** What the console's fault events say about those NICs around the job's run; set when a job is diagnosed. */
  linkHistory?: LinkHistory;
  /** 0..1 */
  confidence: number;
  reason: Bilingual;
  evidence: Evidence[];
}

/** One end of the link an error CQE names, as the log gave it. */
export interface NicEnd {
  deviceIp: string;
  /** The server as the log named it (the server IP in EI0013 and heartbeat lines). */
  server?: string;
  deviceId?: number;
  rank?: number;
}

/** A network fault event (link down, lanes faulty, gateway probe failed) on a NIC's die or on a link at it. */
export interface LinkDownEvent {
  id: string;
  /** The NIC (device IP) it concerns. */
  nic: string;
  /** `<server>/<device>` of that NIC's die. */
  die: string;
  target: "die" | "link";
  kind: string;
  code: string | null;
  level: string;
  beganAt: string;
  endedAt: string | null;
}

/**
 * The link-down history of an error CQE's two NICs from the fault events (seed 002, 6.3: "查询故障管理框架包含时间的
 * 关键事件记录，比如网卡linkdown等"), over the job's run with a margin (`from`..`to`, ISO 8601).
 */
export interface LinkHistory {
  from: string;
  to: string;
  events: LinkDownEvent[];
  /** NICs the job's placement does not put on a die of the inventory: their history is unknown. */
  unplaced: string[];
}

export type RankStatus = "timeout" | "error" | "ok" | "unknown";

export interface RankSummary {
  rank: number;
  deviceId?: number;
  hostIp?: string;
  deviceIp?: string;
  status: RankStatus;
  files: string[];
}

export interface DiagnosisStats {
  files: number;
  lines: number;
  /** Lines that matched no known pattern (kept, counted, never an error). */
  unknownLines: number;
  /** Lines at ERROR level or carrying an HCCL error code. */
  errorLines: number;
}

export interface DiagnosisReport {
  phase: DiagnosisPhase;
  summary: Bilingual;
  suspects: Suspect[];
  /** Suspects left out of `suspects` (it lists the most likely ones only); absent when none were. */
  suspectsOmitted?: number;
  ranks: RankSummary[];
  nextSteps: Bilingual[];
  stats: DiagnosisStats;
}

export interface DiagnoseOptions {
  /** The job's rank table as raw JSON text: gives the expected rank set and rank ↔ device/IP, and is validated for
   *  parse-phase failures. */
  rankTable?: string;
}

export interface LogFile {
  path: string;
  text: string;
}
