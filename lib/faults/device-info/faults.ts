import { quoted } from "../../report-limits";
import { faultProblem } from "../errors";
import { knownFaultCodes, normaliseCode, type FaultKind } from "../model";
import { DeviceInfoError, isLevel, isObject, parseJsonText, type Warn } from "./fields";
import type { DeviceInfoFault } from "./types";

/** Ascend910-4 → 4; also npu-4 / Ascend910-0-vir… style names take the first number after the dash. */
export function deviceIdOfName(name: string): number | null {
  const match = /-(\d+)(?:$|-)/.exec(name);
  return match ? Number(match[1]) : null;
}

function kindOf(faultType: string, code: string): FaultKind {
  const known = knownFaultCodes[code];
  if (known) return known.kind;
  if (faultType === "CardNetworkUnhealthy") return "npu-network-fault";
  if (faultType === "NodeUnhealthy") return "node-fault";
  return "npu-chip-fault";
}

/**
 * The `<resource>-Fault` value of the DeviceList: a JSON array encoded as a string, of DeviceFault objects
 * (pkg/common/proto.go); one fault per code of `fault_code`, timed by `fault_time_and_level_map` or else the
 * snapshot's UpdateTime (`updateTime`, seconds).
 */
export function parseDeviceFaults(faultText: string, faultPath: string, updateTime: number, warn: Warn): DeviceInfoFault[] {
  const faults: DeviceInfoFault[] = [];
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
      if (!isLevel(levelText) && levelText !== "") warn(faultProblem("unknown_level", { path: itemPath, level: quoted(levelText) }));
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
  return faults;
}
