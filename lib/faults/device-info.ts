import { createHash } from "node:crypto";
import { DomainError } from "@/lib/errors";
import { faultProblem, type FaultParams, type FaultProblem, type FaultReason } from "./errors";
import { faultLevels, type FaultLevel } from "./levels";
import { knownFaultCodes, normaliseCode, type FaultKind } from "./model";

/**
 * The Ascend Device Plugin's per-node device-info ConfigMap (`mindx-dl-deviceinfo-<node>`, namespace kube-system),
 * parsed exactly as the plugin writes it. Sources (Ascend/mind-cluster):
 * - component/ascend-device-plugin/pkg/common/proto.go: `NodeDeviceInfoCache{DeviceInfo NodeDeviceInfo; SuperPodID
 *   int32; ServerIndex int32; CheckCode string; RackID *int32 \`json:"RackID,omitempty"\`}`,
 *   `NodeDeviceInfo{DeviceList map[string]string; UpdateTime int64}`, `DeviceFault{fault_type, npu_name,
 *   large_model_fault_level, fault_level, fault_handling, fault_code, fault_time_and_level_map}`,
 *   `FaultTimeAndLevel{fault_time int64 (ms), fault_level}`.
 * - pkg/kubeclient/client_server.go `WriteDeviceInfoDataIntoCM`: data key `DeviceInfoCfg` (+ `SwitchInfoCfg` on A3,
 *   `ManuallySeparateNPU`, `UpgradeFaultReason`, `Description`).
 * - pkg/common/common.go `MakeDataHash`: CheckCode = SHA-256 hex of json.Marshal(DeviceInfo).
 * - docs/en/scheduling/api/ascend_device_plugin.md Table 1: DeviceList keys `huawei.com/Ascend910`,
 *   `-NetworkUnhealthy`, `-Unhealthy`, `-Recovering` (comma-joined chip names), `-Fault` (a JSON array encoded as a
 *   string); SuperPodID/ServerIndex -1 (driver reported 0xffffffff) or -2 (query unsupported/failed).
 * Summarised with verbatim samples in shared/spec/ascend-facts.md §4.
 *
 * On A3 the same ConfigMap carries the 灵衢 (UnifiedBus / L1 switch) faults under `SwitchInfoCfg`. Sources:
 * - pkg/common/proto.go: `SwitchFaultInfo{FaultCode []string; FaultLevel string; UpdateTime int64; NodeStatus
 *   string; FaultTimeAndLevelMap map[string]FaultTimeAndLevel}`, marshalled with Go's default field names;
 *   `SwitchFaultEvent{EventType, AssembledFaultCode (e.g. "[0x00f103b0,155904,na,na]"), PeerPortDevice,
 *   PeerPortId, SwitchChipId, SwitchPortId, Severity, Assertion, AlarmRaisedTime, …}`.
 * - client_server.go `WriteDeviceInfoDataIntoCM`: `SwitchInfoCfg` is written only when the card type is Ascend910A3.
 * - component/clusterd/pkg/domain/switchinfo/switch_util.go `ParseSwitchInfoCM` / `parseSimpleSwitchFaultInfo`: each
 *   FaultCode entry is itself a JSON string of one fault (EventType, AssembledFaultCode, PeerPortDevice, PeerPortId,
 *   SwitchChipId, SwitchPortId, Severity, Assertion, AlarmRaisedTime); FaultTimeAndLevelMap is keyed
 *   `<AssembledFaultCode>_<SwitchChipId>_<SwitchPortId>` (clusterd's fault-handling tests).
 * - docs/zh/scheduling/api/ascend_device_plugin.md Table 2 "SwitchInfoCfg参数说明": Assertion 0 recovered, 1 raised,
 *   2 notice; Severity 0-3; FaultLevel the node's worst level (NotHandle, SubHealthFault, Separate, RestartRequest);
 *   NodeStatus Healthy / SubHealthy / UnHealthy.
 */
export const deviceInfoDataKey = "DeviceInfoCfg";
export const deviceInfoNamePrefix = "mindx-dl-deviceinfo-";
export const switchInfoDataKey = "SwitchInfoCfg";

export interface DeviceInfoFault {
  faultType: string;
  npuName: string;
  /** The die's physical id parsed from `npu_name` (Ascend910-4 → 4), null when the name has no number. */
  deviceId: number | null;
  faultHandling: string;
  level: FaultLevel | null;
  code: string;
  /** ms since the epoch: `fault_time_and_level_map[code].fault_time`, else the snapshot's UpdateTime. */
  faultTime: number;
  codeLevel: string | null;
  kind: FaultKind;
  /** The fault object as written (unknown fields kept). */
  raw: Record<string, unknown>;
}

export interface DeviceInfoSnapshot {
  /** From the ConfigMap's metadata.name (`mindx-dl-deviceinfo-<node>`), when the whole ConfigMap was given. */
  nodeName: string | null;
  /** Seconds since the epoch (DeviceInfo.UpdateTime). */
  updateTime: number;
  superPodId: number | null;
  serverIndex: number | null;
  rackId: number | null;
  checkCode: string | null;
  /** "valid": matches SHA-256 of the DeviceInfo as Go marshals it; "mismatch"; "absent". */
  checkCodeStatus: "valid" | "mismatch" | "absent";
  /** The resource prefix of the DeviceList keys, e.g. `huawei.com/Ascend910`. */
  resource: string | null;
  available: string[];
  unhealthy: string[];
  networkUnhealthy: string[];
  recovering: string[];
  manuallySeparated: string[];
  faults: DeviceInfoFault[];
  /** DeviceList keys the console does not interpret, kept as they were. */
  otherKeys: Record<string, string>;
  /** The 灵衢 switch faults of `SwitchInfoCfg`; null when the input did not carry that key (not "no faults"). */
  switchInfo: SwitchInfoSnapshot | null;
  warnings: FaultProblem[];
  /** The parsed DeviceInfoCfg object, as posted. */
  raw: Record<string, unknown>;
}

/** One fault of `SwitchInfoCfg.FaultCode`. */
export interface SwitchFault {
  /** The alarm id of AssembledFaultCode as upper-case hex (`[0x00f1ff09,155913,cpu,na]` → `00F1FF09`). */
  code: string;
  assembledCode: string;
  chipId: number;
  portId: number;
  /** `<AssembledFaultCode>_<SwitchChipId>_<SwitchPortId>`: its FaultTimeAndLevelMap key and its identity across snapshots. */
  key: string;
  /** The level as the ConfigMap gives it (per fault, else the node's FaultLevel). */
  levelText: string | null;
  level: FaultLevel | null;
  /** ms since the epoch. */
  faultTime: number;
  /** The fault object as written (unknown fields kept). */
  raw: Record<string, unknown>;
}

export interface SwitchInfoSnapshot {
  updateTime: number | null;
  faultLevel: string | null;
  nodeStatus: string | null;
  faults: SwitchFault[];
  /** The parsed SwitchInfoCfg object, as posted. */
  raw: Record<string, unknown>;
}

/**
 * Malformed input: `reason` and `params` say what (lib/faults/errors.ts), `path` where; the message is English.
 * The API answers 422 invalid_device_info with `{path, reason, params}`.
 */
export class DeviceInfoError extends DomainError {
  readonly problem: FaultProblem;
  constructor(reason: FaultReason, params: FaultParams & { path: string }) {
    const problem = faultProblem(reason, params, { code: "invalid_device_info", path: params.path });
    super("invalid", problem.message, { code: "invalid_device_info", details: { path: problem.path, reason: problem.reason, params: problem.params } });
    this.name = "DeviceInfoError";
    this.problem = problem;
  }

  get path(): string {
    return this.problem.path ?? "body";
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function parseJsonText(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DeviceInfoError("not_json", { path, detail: (error as Error).message });
  }
}

function int32OrNull(value: unknown, path: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value)) throw new DeviceInfoError("not_integer", { path });
  return value;
}

function names(list: string | undefined): string[] {
  return list ? list.split(",").map((n) => n.trim()).filter(Boolean) : [];
}

/** Ascend910-4 → 4; also npu-4 / Ascend910-0-vir… style names take the first number after the dash. */
export function deviceIdOfName(name: string): number | null {
  const match = /-(\d+)(?:$|-)/.exec(name);
  return match ? Number(match[1]) : null;
}

function isLevel(value: unknown): value is FaultLevel {
  return typeof value === "string" && (faultLevels as readonly string[]).includes(value);
}

function kindOf(faultType: string, code: string): FaultKind {
  const known = knownFaultCodes[code];
  if (known) return known.kind;
  if (faultType === "CardNetworkUnhealthy") return "npu-network-fault";
  if (faultType === "NodeUnhealthy") return "node-fault";
  return "npu-chip-fault";
}

/**
 * Go's encoding/json output for a string: JSON with <, >, & and U+2028/U+2029 escaped (HTML-safe), which is what
 * `json.Marshal` writes and `MakeDataHash` hashes.
 */
function goString(value: string): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** json.Marshal(NodeDeviceInfo): fields in struct order, map keys sorted (Go sorts map keys by their bytes). */
export function goMarshalDeviceInfo(deviceList: Record<string, string>, updateTime: number): string {
  const keys = Object.keys(deviceList).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const entries = keys.map((k) => `${goString(k)}:${goString(deviceList[k]!)}`).join(",");
  return `{"DeviceList":{${entries}},"UpdateTime":${updateTime}}`;
}

export function computeCheckCode(deviceList: Record<string, string>, updateTime: number): string {
  return createHash("sha256").update(goMarshalDeviceInfo(deviceList, updateTime)).digest("hex");
}

/** Go's switch levels name some of MindCluster's handling levels shorter (clusterd: NotHandle, Separate, PreSeparate). */
const switchLevelNames: Record<string, FaultLevel> = { NotHandle: "NotHandleFault", Separate: "SeparateNPU", PreSeparate: "PreSeparateNPU" };

function levelOf(text: string | null): FaultLevel | null {
  if (text === null) return null;
  return isLevel(text) ? text : (switchLevelNames[text] ?? null);
}

/** A time the plugin writes in seconds (AlarmRaisedTime, UpdateTime) or ms (fault_time): anything below 10^11 is seconds. */
function epochMs(value: unknown): number | null {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return null;
  return value < 1e11 ? value * 1000 : value;
}

function stringOrNull(value: unknown, path: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new DeviceInfoError("not_string", { path });
  return value;
}

/** `[0x00f1ff09,155913,cpu,na]` → `00F1FF09` (the alarm id); a plain hex code (`0000002d`) → `0000002D`. */
export function switchFaultCode(assembled: string): string {
  const bracketed = /^\[\s*((?:0x)?[0-9a-f]+)\s*,/i.exec(assembled);
  return normaliseCode(bracketed ? bracketed[1] : assembled) ?? assembled;
}

function parseSwitchInfo(value: unknown, path: string, fallbackSeconds: number, warnings: FaultProblem[]): SwitchInfoSnapshot {
  const cfg = typeof value === "string" ? parseJsonText(value, path) : value;
  if (!isObject(cfg)) throw new DeviceInfoError("not_object", { path });
  const list = cfg.FaultCode ?? [];
  if (!Array.isArray(list)) throw new DeviceInfoError("not_array", { path: `${path}.FaultCode` });
  const timeMap = cfg.FaultTimeAndLevelMap ?? {};
  if (!isObject(timeMap)) throw new DeviceInfoError("not_object", { path: `${path}.FaultTimeAndLevelMap` });
  const updateTime = int32OrNull(cfg.UpdateTime, `${path}.UpdateTime`);
  const faultLevel = stringOrNull(cfg.FaultLevel, `${path}.FaultLevel`);
  const nodeStatus = stringOrNull(cfg.NodeStatus, `${path}.NodeStatus`);
  const fallbackMs = epochMs(updateTime) ?? fallbackSeconds * 1000;

  const faults: SwitchFault[] = [];
  list.forEach((entry: unknown, index: number) => {
    const entryPath = `${path}.FaultCode[${index}]`;
    // Go's []string: every fault is a JSON string of its own.
    if (typeof entry !== "string") throw new DeviceInfoError("not_string", { path: entryPath });
    const item = parseJsonText(entry, entryPath);
    if (!isObject(item)) throw new DeviceInfoError("not_object", { path: entryPath });
    const assembledCode = item.AssembledFaultCode;
    if (typeof assembledCode !== "string" || assembledCode.trim() === "") throw new DeviceInfoError("bad_switch_code", { path: entryPath });
    // Go's uint fields: absent means 0.
    const chipId = int32OrNull(item.SwitchChipId, `${entryPath}.SwitchChipId`) ?? 0;
    const portId = int32OrNull(item.SwitchPortId, `${entryPath}.SwitchPortId`) ?? 0;
    if (item.Assertion === 0) {
      warnings.push(faultProblem("switch_recovery_record", { path: entryPath }));
      return;
    }
    const key = `${assembledCode}_${chipId}_${portId}`;
    const timed = timeMap[key];
    const timedLevel = isObject(timed) && typeof timed.fault_level === "string" ? timed.fault_level : null;
    const levelText = timedLevel ?? faultLevel;
    const level = levelOf(levelText);
    if (levelText !== null && level === null) warnings.push(faultProblem("unknown_level", { path: entryPath, level: levelText }));
    faults.push({
      code: switchFaultCode(assembledCode),
      assembledCode,
      chipId,
      portId,
      key,
      levelText,
      level,
      faultTime: (isObject(timed) ? epochMs(timed.fault_time) : null) ?? epochMs(item.AlarmRaisedTime) ?? fallbackMs,
      raw: item,
    });
  });
  return { updateTime, faultLevel, nodeStatus, faults, raw: cfg };
}

/**
 * Parses what a user pastes or posts: the whole ConfigMap (`kubectl get cm … -o json`, or its YAML's data given as
 * JSON), its `data` object, or the `DeviceInfoCfg` value (as an object or as the JSON string). `SwitchInfoCfg` is
 * read when the ConfigMap or its data is given. Throws DeviceInfoError naming the path of the first problem;
 * nothing is guessed.
 */
export function parseDeviceInfo(input: unknown): DeviceInfoSnapshot {
  let value = input;
  if (typeof value === "string") value = parseJsonText(value, "body");
  if (!isObject(value)) throw new DeviceInfoError("not_configmap", { path: "body" });

  let nodeName: string | null = null;
  let data: Record<string, unknown> | null = null;
  let cfg: unknown = value;
  let path = "body";
  if ("data" in value || value.kind === "ConfigMap") {
    const metadata = value.metadata;
    if (isObject(metadata) && typeof metadata.name === "string") {
      nodeName = metadata.name.startsWith(deviceInfoNamePrefix) ? metadata.name.slice(deviceInfoNamePrefix.length) : metadata.name;
    }
    if (!isObject(value.data)) throw new DeviceInfoError("no_data", { path: "data" });
    data = value.data;
  } else if (deviceInfoDataKey in value) {
    data = value;
  }
  if (data) {
    path = `data.${deviceInfoDataKey}`;
    cfg = data[deviceInfoDataKey];
    if (cfg === undefined) throw new DeviceInfoError("missing_key", { path, key: deviceInfoDataKey });
  }
  if (typeof cfg === "string") cfg = parseJsonText(cfg, path);
  if (!isObject(cfg)) throw new DeviceInfoError("not_object", { path });

  const deviceInfo = cfg.DeviceInfo;
  if (!isObject(deviceInfo)) throw new DeviceInfoError("missing_object", { path: `${path}.DeviceInfo` });
  const list = deviceInfo.DeviceList;
  if (!isObject(list)) throw new DeviceInfoError("missing_object", { path: `${path}.DeviceInfo.DeviceList` });
  const deviceList: Record<string, string> = {};
  for (const [key, entry] of Object.entries(list)) {
    // Go's map[string]string: every value is a string.
    if (typeof entry !== "string") throw new DeviceInfoError("not_string", { path: `${path}.DeviceInfo.DeviceList["${key}"]` });
    deviceList[key] = entry;
  }
  const updateTime = deviceInfo.UpdateTime;
  if (typeof updateTime !== "number" || !Number.isInteger(updateTime) || updateTime < 0) {
    throw new DeviceInfoError("bad_update_time", { path: `${path}.DeviceInfo.UpdateTime` });
  }
  const checkCode = stringOrNull(cfg.CheckCode, `${path}.CheckCode`);

  const warnings: FaultProblem[] = [];
  const checkCodeStatus = checkCode === null ? "absent" : computeCheckCode(deviceList, updateTime) === checkCode.toLowerCase() ? "valid" : "mismatch";
  if (checkCodeStatus === "mismatch") warnings.push(faultProblem("check_code_mismatch"));

  // Keys: `<prefix>` (available), `<prefix>-Unhealthy`, `-NetworkUnhealthy`, `-Recovering`, `-Fault`.
  const suffixes = ["-NetworkUnhealthy", "-Unhealthy", "-Recovering", "-Fault"] as const;
  let resource: string | null = null;
  const bySuffix: Partial<Record<(typeof suffixes)[number] | "", string>> = {};
  const otherKeys: Record<string, string> = {};
  for (const [key, entry] of Object.entries(deviceList)) {
    const suffix = suffixes.find((s) => key.endsWith(s));
    const base = suffix ? key.slice(0, -suffix.length) : key;
    if (!base.startsWith("huawei.com/")) {
      otherKeys[key] = entry;
      continue;
    }
    if (resource !== null && resource !== base) {
      otherKeys[key] = entry;
      continue;
    }
    resource = base;
    bySuffix[suffix ?? ""] = entry;
  }

  const faults: DeviceInfoFault[] = [];
  const faultText = bySuffix["-Fault"];
  if (faultText !== undefined && faultText.trim() !== "") {
    const faultPath = `${path}.DeviceInfo.DeviceList["${resource}-Fault"]`;
    const parsed = parseJsonText(faultText, faultPath);
    if (parsed !== null && !Array.isArray(parsed)) throw new DeviceInfoError("not_encoded_array", { path: faultPath });
    (parsed ?? []).forEach((item: unknown, index: number) => {
      const itemPath = `${faultPath}[${index}]`;
      if (!isObject(item)) throw new DeviceInfoError("not_object", { path: itemPath });
      const npuName = item.npu_name;
      if (typeof npuName !== "string" || npuName === "") throw new DeviceInfoError("bad_npu_name", { path: `${itemPath}.npu_name` });
      const codeText = item.fault_code;
      if (typeof codeText !== "string") throw new DeviceInfoError("bad_fault_code", { path: `${itemPath}.fault_code` });
      const timeMap = item.fault_time_and_level_map;
      if (timeMap !== undefined && timeMap !== null && !isObject(timeMap)) {
        throw new DeviceInfoError("not_object", { path: `${itemPath}.fault_time_and_level_map` });
      }
      const faultType = typeof item.fault_type === "string" ? item.fault_type : "";
      const handling = typeof item.fault_handling === "string" ? item.fault_handling : typeof item.fault_level === "string" ? item.fault_level : "";
      const codes = codeText.split(",").map((c) => normaliseCode(c)).filter((c): c is string => c !== null);
      const mapByCode = new Map<string, Record<string, unknown>>();
      for (const [code, entry] of Object.entries(timeMap ?? {})) {
        const normal = normaliseCode(code);
        if (normal && isObject(entry)) mapByCode.set(normal, entry);
      }
      // A fault without a code (e.g. a card that dropped off the bus) is still a fault of its chip.
      for (const code of codes.length ? codes : [""]) {
        const entry = mapByCode.get(code);
        const time = entry?.fault_time;
        const codeLevel = typeof entry?.fault_level === "string" ? entry.fault_level : null;
        const levelText = codeLevel ?? handling;
        if (!isLevel(levelText) && levelText !== "") warnings.push(faultProblem("unknown_level", { path: itemPath, level: levelText }));
        faults.push({
          faultType,
          npuName,
          deviceId: deviceIdOfName(npuName),
          faultHandling: handling,
          level: isLevel(levelText) ? levelText : null,
          code,
          faultTime: typeof time === "number" && Number.isFinite(time) && time > 0 ? time : updateTime * 1000,
          codeLevel,
          kind: kindOf(faultType, code),
          raw: item,
        });
      }
    });
  }

  const switchValue = data?.[switchInfoDataKey];
  const switchInfo = switchValue === undefined ? null : parseSwitchInfo(switchValue, `data.${switchInfoDataKey}`, updateTime, warnings);

  return {
    nodeName,
    updateTime,
    superPodId: int32OrNull(cfg.SuperPodID, `${path}.SuperPodID`),
    serverIndex: int32OrNull(cfg.ServerIndex, `${path}.ServerIndex`),
    rackId: int32OrNull(cfg.RackID, `${path}.RackID`),
    checkCode,
    checkCodeStatus,
    resource,
    available: names(bySuffix[""]),
    unhealthy: names(bySuffix["-Unhealthy"]),
    networkUnhealthy: names(bySuffix["-NetworkUnhealthy"]),
    recovering: names(bySuffix["-Recovering"]),
    manuallySeparated: typeof data?.ManuallySeparateNPU === "string" ? names(data.ManuallySeparateNPU) : [],
    faults,
    otherKeys,
    switchInfo,
    warnings,
    raw: cfg,
  };
}

/** -1 / -2 mean "unknown" (0xffffffff from the driver, or the query unsupported). */
export function knownIndex(value: number | null): number | null {
  return value === null || value < 0 ? null : value;
}
