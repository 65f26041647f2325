import { FindingCap, quoted } from "../../report-limits";
import { faultProblem, type FaultProblem } from "../errors";
import { computeCheckCode } from "./check-code";
import { parseDeviceFaults } from "./faults";
import { DeviceInfoError, int32OrNull, isObject, names, parseJsonText, stringOrNull, type Warn } from "./fields";
import { parseSwitchInfo, switchInfoDataKey } from "./switch-info";
import type { DeviceInfoFault, DeviceInfoSnapshot } from "./types";

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
    if (typeof entry !== "string") throw new DeviceInfoError("not_string", { path: `${path}.DeviceInfo.DeviceList["${quoted(key)}"]` });
    deviceList[key] = entry;
  }
  const updateTime = deviceInfo.UpdateTime;
  if (typeof updateTime !== "number" || !Number.isInteger(updateTime) || updateTime < 0) {
    throw new DeviceInfoError("bad_update_time", { path: `${path}.DeviceInfo.UpdateTime` });
  }
  const checkCode = stringOrNull(cfg.CheckCode, `${path}.CheckCode`);

  const warnings: FaultProblem[] = [];
  const cap = new FindingCap();
  const warn: Warn = (problem) => cap.push(warnings, problem, problem.reason);
  const checkCodeStatus = checkCode === null ? "absent" : computeCheckCode(deviceList, updateTime) === checkCode.toLowerCase() ? "valid" : "mismatch";
  if (checkCodeStatus === "mismatch") warn(faultProblem("check_code_mismatch"));

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

  const faultText = bySuffix["-Fault"];
  const faults: DeviceInfoFault[] =
    faultText !== undefined && faultText.trim() !== "" ? parseDeviceFaults(faultText, `${path}.DeviceInfo.DeviceList["${resource}-Fault"]`, updateTime, warn) : [];


  const switchValue = data?.[switchInfoDataKey];
  const switchInfo = switchValue === undefined ? null : parseSwitchInfo(switchValue, `data.${switchInfoDataKey}`, updateTime, warn);

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
    ...(cap.omitted() ? { omittedWarnings: cap.omitted() } : {}),
    raw: cfg,
  };
}

/** -1 / -2 mean "unknown" (0xffffffff from the driver, or the query unsupported). */
export function knownIndex(value: number | null): number | null {
  return value === null || value < 0 ? null : value;
}
