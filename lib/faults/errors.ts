import type { z } from "zod";

/**
 * The vocabulary of what fault ingestion refuses or warns about (POST /api/v1/fault-events per item, the
 * device-info endpoint, the CSV import, the settings form). Every problem has a stable `reason` and `params`: the
 * console renders `faults.errors.<reason>` of messages/*.json with the params, in the reader's language; the API
 * also sends the English `message` built here, for scripts and logs. Templates use `{name}` placeholders, the
 * same names as the messages' ICU arguments (lib/faults/errors.test.ts checks both languages have every reason).
 */
export const englishTemplates = {
  // device-info ConfigMap shape
  not_json: "{path} is not valid JSON: {detail}",
  not_configmap: "expected a ConfigMap object, its data, or the DeviceInfoCfg JSON",
  no_data: "the ConfigMap has no data object",
  missing_key: "the ConfigMap has no {key} key",
  missing_object: "{path} is missing or not an object",
  not_object: "{path} must be a JSON object",
  not_array: "{path} must be a JSON array",
  not_encoded_array: "{path} must be a JSON array (encoded as a string)",
  not_string: "{path} must be a string",
  not_integer: "{path} must be an integer",
  bad_update_time: "{path} must be a Unix time in seconds",
  bad_npu_name: "{path} must be a chip name such as Ascend910-0",
  bad_fault_code: "{path} must be a string of comma-joined hex codes",
  bad_switch_code: "{path}.AssembledFaultCode must be a fault code such as [0x00f1ff09,155913,cpu,na]",
  // device-info warnings
  check_code_mismatch: "CheckCode does not match the SHA-256 of DeviceInfo: the ConfigMap was edited by hand or truncated",
  unknown_level: "{path}: unknown fault level {level} kept as raw",
  switch_recovery_record: "{path}: a recovery record (Assertion 0) is not an open fault",
  not_a_die: "{npu} is not a die of {server}: its fault is recorded against the server",
  switch_chip_unmapped: "switch chip {chip} of {server} is not in the cluster's fabric: its fault is recorded against the server",
  stale_snapshot: "a newer snapshot (UpdateTime {updateTime}) was already taken in; this one changes nothing",
  // where an event or snapshot belongs
  unknown_cluster: "no cluster {cluster}",
  unknown_node: "node {node} is not a server of this cluster (by server id or host IP)",
  unknown_node_slot: "node {node} is not a server of this cluster (by server id or host IP), nor is super pod {superPod} server {slot}",
  node_unnamed: "the snapshot names no node: post the whole ConfigMap (metadata.name), or add ?node=<server>",
  unknown_server: "server {server} is not in this cluster",
  unknown_super_pod: "super pod {superPod} is not in this cluster",
  server_not_in_super_pod: "server {server} is not in super pod {superPod}",
  unknown_die: "server {server} has no die with device id {die}",
  unknown_npu: "server {server} has no NPU {npu}",
  unknown_peer: "the link's other die {server}/{die} is not in this cluster",
  future_time: "the event is dated more than a day ahead",
  past_retention:
    "the event is from before this cluster's retention period ({days} days, so before {cutoff}): such events are deleted or archived, not taken in again",
  no_open_event: "no open event of this target, kind and code began before this end",
  // an event's fields (zod issues, by kind)
  invalid_type: "{path}: expected {expected}",
  invalid_value: "{path}: must be one of {options}",
  invalid_union: "{path}: not an accepted value",
  invalid_format: "{path}: not a valid {format}",
  too_big: "{path}: at most {limit}",
  too_small: "{path}: at least {limit}",
  unrecognized_keys: "{path}: unknown fields {keys}",
  invalid_field: "{path}: {detail}",
  unstorable_text: "{path}: the text holds a NUL character or a lone UTF-16 surrogate, which cannot be stored",
  unstorable_json: "{path}: nested too deep (more than 32 levels), too large (over 64 KB), or holds a NUL character or a lone UTF-16 surrogate",
  began_at_required: "a begin event needs beganAt",
  ended_at_required: "an end event needs endedAt",
  ended_before_began: "endedAt is before beganAt",
  target_needs_server: "an NPU, die or link target needs its server",
  link_needs_die: "a link target needs die and peer",
  manual_separation_not_duration: "ManuallySeparateNPU is not allowed as FaultDuration handling",
  // CSV files
  csv_not_integer: '{column} "{value}" is not a whole number',
  csv_header: "the header must name at least began_at and kind (the export's columns work)",
  csv_syntax: "line {line}: {detail}",
  csv_extra_fields: "line {line} has {count} fields but the header names {columns}: quote values that hold commas",
} as const;

export type FaultReason = keyof typeof englishTemplates;
export type FaultParams = Record<string, string | number>;

/** One refusal or warning: `code` is the API's category (e.g. unknown_target), `reason` the message to show. */
export interface FaultProblem {
  code: string;
  reason: FaultReason;
  params: FaultParams;
  /** English, for automation. */
  message: string;
  /** Where in the input (dotted path), when it is about one field. */
  path?: string;
}

export function isFaultReason(value: unknown): value is FaultReason {
  return typeof value === "string" && Object.hasOwn(englishTemplates, value);
}

export function englishMessage(reason: FaultReason, params: FaultParams = {}): string {
  return englishTemplates[reason].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function faultProblem(reason: FaultReason, params: FaultParams = {}, options: { code?: string; path?: string } = {}): FaultProblem {
  const problem: FaultProblem = { code: options.code ?? reason, reason, params, message: englishMessage(reason, params) };
  if (options.path !== undefined) problem.path = options.path;
  return problem;
}

/** A zod issue's path as the API names fields: `target.die`, `duration.0.faultTimeoutSeconds`. */
export function issuePath(issue: z.core.$ZodIssue): string {
  return issue.path.map(String).join(".");
}

/**
 * A zod issue as a problem. Custom issues name their reason in `params.reason` (db/schema/fault-event/validation.ts);
 * the others by zod's issue code with its limit, expected type or options. The English message stays zod's.
 */
export function zodIssueProblem(issue: z.core.$ZodIssue, code = "invalid_event"): FaultProblem {
  const path = issuePath(issue);
  const field = path || "body";
  const base = { code, path, message: issue.message };
  switch (issue.code) {
    case "invalid_type":
      return { ...base, reason: "invalid_type", params: { path: field, expected: issue.expected } };
    case "invalid_value":
      return { ...base, reason: "invalid_value", params: { path: field, options: issue.values.map(String).join(", ") } };
    case "too_big":
      return { ...base, reason: "too_big", params: { path: field, limit: String(issue.maximum) } };
    case "too_small":
      return { ...base, reason: "too_small", params: { path: field, limit: String(issue.minimum) } };
    case "unrecognized_keys":
      return { ...base, reason: "unrecognized_keys", params: { path: field, keys: issue.keys.join(", ") } };
    case "invalid_union":
      return { ...base, reason: "invalid_union", params: { path: field } };
    case "invalid_format":
      return { ...base, reason: "invalid_format", params: { path: field, format: issue.format } };
    case "custom": {
      const reason: unknown = issue.params?.reason;
      if (isFaultReason(reason)) return { ...base, reason, params: { path: field } };
      return { ...base, reason: "invalid_field", params: { path: field, detail: issue.message } };
    }
    default:
      return { ...base, reason: "invalid_field", params: { path: field, detail: issue.message } };
  }
}
