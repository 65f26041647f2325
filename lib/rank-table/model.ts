/**
 * Types and field catalogues of HCCL rank tables ("hccl.json"), versions "1.0" (AI Server mode) and
 * "1.2" (Atlas A3 super pod mode), as described in ../shared/seeds/000_48488ea53fe16ae7.txt.
 */

import type { A5RankTable } from "./a5-model";
import type { OmittedFindings } from "../report-limits";

export type Severity = "error" | "warning" | "info";
export type Lang = "en" | "zh";
export type TableMode = "super-pod" | "ai-server";
/**
 * Layouts other than "1.0" and "1.2" (spec section "Other layouts"): the two flavours of the legacy template, "2.0"
 * (Atlas 350/850/950), and files that are not HCCL rank tables (LLM-DataDist prefill/decode, MindIE global).
 */
export type TableLayout = "legacy-mindspore" | "legacy-tensorflow" | "2.0" | "llm-datadist" | "mindie-global";

/** Any value JSON can carry. Objects come from JSON.parse or the JSONC builder; `__proto__` is an own data key. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** One finding, in the spec's report format. `line`/`column` are 1-based and present whenever text was given. */
export interface Issue {
  code: RuleCode;
  severity: Severity;
  /** JSON Pointer (RFC 6901) into the document as written; "" is the whole document. */
  path: string;
  message: string;
  line?: number;
  column?: number;
}

export interface ValidationReport {
  valid: boolean;
  /** The declared `version` (as text), or null when there is none. */
  version: string | null;
  mode: TableMode;
  /** Present when the table is not a "1.0" or "1.2" table (or has no version) but a layout Rankscope recognises. */
  layout?: TableLayout;
  stats: { superPods: number; servers: number; devices: number };
  issues: Issue[];
  /**
   * Present when the report lists fewer issues than were found (lib/report-limits.ts): how many were left out, in
   * all and per code. An addition to the spec's shape; `valid` still counts every issue.
   */
  omitted?: OmittedFindings;
}

export type RuleCode =
  | "RT000" | "RT001" | "RT002" | "RT003" | "RT004" | "RT005" | "RT006"
  | "RT010" | "RT011" | "RT012" | "RT013" | "RT014" | "RT015" | "RT016" | "RT017"
  | "RT020" | "RT021" | "RT022" | "RT023" | "RT024" | "RT025" | "RT026"
  | "RT030" | "RT031" | "RT032" | "RT033" | "RT034" | "RT035" | "RT036" | "RT037" | "RT038" | "RT039"
  | "RT040" | "RT041" | "RT042" | "RT043" | "RT044" | "RT045" | "RT046" | "RT047" | "RT048" | "RT049"
  | "RT050" | "RT051" | "RT052" | "RT053" | "RT054" | "RT055"
  | "RT060" | "RT061" | "RT062" | "RT063" | "RT064" | "RT065" | "RT066" | "RT067"
  | "RT070" | "RT071" | "RT072" | "RT073" | "RT074" | "RT075" | "RT076" | "RT077" | "RT078" | "RT079"
  | "RT100" | "RT101" | "RT102" | "RT103" | "RT104" | "RT105" | "RT106" | "RT107" | "RT108" | "RT109"
  | "RT110" | "RT111" | "RT112" | "RT113" | "RT114" | "RT115" | "RT116" | "RT117" | "RT118" | "RT119"
  | "RT120" | "RT121" | "RT122" | "RT123" | "RT124";

/** The canonical shape of a device entry; every value is a string, absent optional fields are left out. */
export interface RankTableDevice {
  device_id: string;
  super_device_id?: string;
  device_ip?: string;
  device_port?: string;
  backup_device_ip?: string;
  backup_device_port?: string;
  host_port?: string;
  rank_id: string;
}

export interface RankTableServer {
  server_id: string;
  host_ip?: string;
  device: RankTableDevice[];
}

export interface RankTableSuperPod {
  super_pod_id: string;
  server_list: { server_id: string }[];
}

export interface RankTable {
  status: "completed" | "initializing";
  version: "1.0" | "1.2";
  server_count?: string;
  server_list: RankTableServer[];
  super_pod_list?: RankTableSuperPod[];
}

/** What the writer and the repairs accept: a parsed value, or a typed table (e.g. from a generator). */
export type RankTableInput = JsonValue | RankTable | A5RankTable;

export const SUPPORTED_VERSIONS = ["1.0", "1.2"] as const;

/** Known keys per level, in the reference's (and the canonical export's) order. */
export const ROOT_FIELDS = ["status", "version", "server_count", "server_list", "super_pod_list"] as const;
export const SERVER_FIELDS = ["server_id", "host_ip", "device"] as const;
export const DEVICE_FIELDS = [
  "device_id",
  "super_device_id",
  "device_ip",
  "device_port",
  "backup_device_ip",
  "backup_device_port",
  "host_port",
  "rank_id",
] as const;
export const SUPER_POD_FIELDS = ["super_pod_id", "server_list"] as const;
export const SUPER_POD_SERVER_FIELDS = ["server_id"] as const;

/** Fields that real generators write but the reference does not list: reported as info, not warning. */
export const GENERATOR_FIELDS: ReadonlySet<string> = new Set(["host_nic_ip", "container_ip", "hardware_type", "pod_ip"]);

/** The most dies one server has (Atlas A3: 8 NPUs × 2 dies). */
export const MAX_DEVICE_ID = 15;
export const MAX_SERVER_ID_LENGTH = 64;
/** Ports 1–1023 are the system's reserved range. */
export const FIRST_UNRESERVED_PORT = 1024;
export const MAX_PORT = 65535;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The version a table is checked (and repaired) as: the declared "1.0" or "1.2", or, when `version` is missing or
 * unsupported, the one its layout implies ("1.2" when it has a super_pod_list).
 */
export function impliedVersion(declared: string | undefined, hasSuperPodList: boolean): "1.0" | "1.2" {
  if (declared === "1.0" || declared === "1.2") return declared;
  return hasSuperPodList ? "1.2" : "1.0";
}

/**
 * The string HCCL expects for a JSON number or boolean (RT003): 16666 → "16666", true → "true". A whole-number
 * `version` keeps its decimal point (1 → "1.0"), since the number was almost certainly written as 1.0.
 */
export function scalarToString(key: string, value: number | boolean): string {
  if (key === "version" && typeof value === "number" && Number.isInteger(value)) return value.toFixed(1);
  return String(value);
}
