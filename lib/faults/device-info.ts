import { createHash } from "node:crypto";
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
 */
export const deviceInfoDataKey = "DeviceInfoCfg";
export const deviceInfoNamePrefix = "mindx-dl-deviceinfo-";

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
  warnings: string[];
  /** The parsed DeviceInfoCfg object, as posted. */
  raw: Record<string, unknown>;
}

export class DeviceInfoError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = "DeviceInfoError";
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function parseJsonText(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DeviceInfoError(`${path} is not valid JSON: ${(error as Error).message}`, path);
  }
}

function int32OrNull(value: unknown, path: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value)) throw new DeviceInfoError(`${path} must be an integer`, path);
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

/**
 * Parses what a user pastes or posts: the whole ConfigMap (`kubectl get cm … -o json`, or its YAML's data given as
 * JSON), its `data` object, or the `DeviceInfoCfg` value (as an object or as the JSON string). Throws
 * DeviceInfoError naming the path of the first problem; nothing is guessed.
 */
export function parseDeviceInfo(input: unknown): DeviceInfoSnapshot {
  let value = input;
  if (typeof value === "string") value = parseJsonText(value, "body");
  if (!isObject(value)) throw new DeviceInfoError("expected a ConfigMap object, its data, or the DeviceInfoCfg JSON", "body");

  let nodeName: string | null = null;
  let data: Record<string, unknown> | null = null;
  let cfg: unknown = value;
  let path = "body";
  if ("data" in value || value.kind === "ConfigMap") {
    const metadata = value.metadata;
    if (isObject(metadata) && typeof metadata.name === "string") {
      nodeName = metadata.name.startsWith(deviceInfoNamePrefix) ? metadata.name.slice(deviceInfoNamePrefix.length) : metadata.name;
    }
    if (!isObject(value.data)) throw new DeviceInfoError("the ConfigMap has no data object", "data");
    data = value.data;
  } else if (deviceInfoDataKey in value) {
    data = value;
  }
  if (data) {
    path = `data.${deviceInfoDataKey}`;
    cfg = data[deviceInfoDataKey];
    if (cfg === undefined) throw new DeviceInfoError(`the ConfigMap has no ${deviceInfoDataKey} key`, path);
  }
  if (typeof cfg === "string") cfg = parseJsonText(cfg, path);
  if (!isObject(cfg)) throw new DeviceInfoError(`${path} must be a JSON object`, path);

  const deviceInfo = cfg.DeviceInfo;
  if (!isObject(deviceInfo)) throw new DeviceInfoError(`${path}.DeviceInfo is missing or not an object`, `${path}.DeviceInfo`);
  const list = deviceInfo.DeviceList;
  if (!isObject(list)) throw new DeviceInfoError(`${path}.DeviceInfo.DeviceList is missing or not an object`, `${path}.DeviceInfo.DeviceList`);
  const deviceList: Record<string, string> = {};
  for (const [key, entry] of Object.entries(list)) {
    // Go's map[string]string: every value is a string.
    if (typeof entry !== "string") throw new DeviceInfoError(`DeviceList["${key}"] must be a string`, `${path}.DeviceInfo.DeviceList.${key}`);
    deviceList[key] = entry;
  }
  const updateTime = deviceInfo.UpdateTime;
  if (typeof updateTime !== "number" || !Number.isInteger(updateTime) || updateTime < 0) {
    throw new DeviceInfoError(`${path}.DeviceInfo.UpdateTime must be a Unix time in seconds`, `${path}.DeviceInfo.UpdateTime`);
  }
  const checkCode = cfg.CheckCode === undefined ? null : typeof cfg.CheckCode === "string" ? cfg.CheckCode : null;
  if (cfg.CheckCode !== undefined && checkCode === null) throw new DeviceInfoError(`${path}.CheckCode must be a string`, `${path}.CheckCode`);

  const warnings: string[] = [];
  const checkCodeStatus = checkCode === null ? "absent" : computeCheckCode(deviceList, updateTime) === checkCode.toLowerCase() ? "valid" : "mismatch";
  if (checkCodeStatus === "mismatch") warnings.push("CheckCode does not match the SHA-256 of DeviceInfo: the ConfigMap was edited by hand or truncated");

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
    if (parsed !== null && !Array.isArray(parsed)) throw new DeviceInfoError(`${faultPath} must be a JSON array (encoded as a string)`, faultPath);
    (parsed ?? []).forEach((item: unknown, index: number) => {
      const itemPath = `${faultPath}[${index}]`;
      if (!isObject(item)) throw new DeviceInfoError(`${itemPath} must be an object`, itemPath);
      const npuName = item.npu_name;
      if (typeof npuName !== "string" || npuName === "") throw new DeviceInfoError(`${itemPath}.npu_name must be a chip name such as Ascend910-0`, `${itemPath}.npu_name`);
      const codeText = item.fault_code;
      if (typeof codeText !== "string") throw new DeviceInfoError(`${itemPath}.fault_code must be a string of comma-joined hex codes`, `${itemPath}.fault_code`);
      const timeMap = item.fault_time_and_level_map;
      if (timeMap !== undefined && timeMap !== null && !isObject(timeMap)) {
        throw new DeviceInfoError(`${itemPath}.fault_time_and_level_map must be an object`, `${itemPath}.fault_time_and_level_map`);
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
        if (!isLevel(levelText) && levelText !== "") warnings.push(`${itemPath}: unknown fault level ${levelText} kept as raw`);
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
    warnings,
    raw: cfg,
  };
}

/** -1 / -2 mean "unknown" (0xffffffff from the driver, or the query unsupported). */
export function knownIndex(value: number | null): number | null {
  return value === null || value < 0 ? null : value;
}
