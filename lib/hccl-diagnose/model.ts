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
  /** 0..1 */
  confidence: number;
  reason: Bilingual;
  evidence: Evidence[];
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
