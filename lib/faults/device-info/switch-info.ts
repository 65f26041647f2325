import { quoted } from "../../report-limits";
import { faultProblem } from "../errors";
import type { FaultLevel } from "../levels";
import { normaliseCode } from "../model";
import { DeviceInfoError, epochMs, int32OrNull, isLevel, isObject, parseJsonText, stringOrNull, type Warn } from "./fields";
import type { SwitchFault, SwitchInfoSnapshot } from "./types";

/**
 * On A3 the device-info ConfigMap also carries the 灵衢 (UnifiedBus / L1 switch) faults under `SwitchInfoCfg`. Sources:
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
export const switchInfoDataKey = "SwitchInfoCfg";

/** Go's switch levels name some of MindCluster's handling levels shorter (clusterd: NotHandle, Separate, PreSeparate). */
const switchLevelNames: Record<string, FaultLevel> = { NotHandle: "NotHandleFault", Separate: "SeparateNPU", PreSeparate: "PreSeparateNPU" };

function levelOf(text: string | null): FaultLevel | null {
  if (text === null) return null;
  return isLevel(text) ? text : (switchLevelNames[text] ?? null);
}

/** `[0x00f1ff09,155913,cpu,na]` → `00F1FF09` (the alarm id); a plain hex code (`0000002d`) → `0000002D`. */
export function switchFaultCode(assembled: string): string {
  const bracketed = /^\[\s*((?:0x)?[0-9a-f]+)\s*,/i.exec(assembled);
  return normaliseCode(bracketed ? bracketed[1] : assembled) ?? assembled;
}

/** `SwitchInfoCfg` (an object or its JSON string); `fallbackSeconds` is DeviceInfo.UpdateTime, for faults without a time. */
export function parseSwitchInfo(value: unknown, path: string, fallbackSeconds: number, warn: Warn): SwitchInfoSnapshot {
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
      warn(faultProblem("switch_recovery_record", { path: entryPath }));
      return;
    }
    const key = `${assembledCode}_${chipId}_${portId}`;
    const timed = timeMap[key];
    const timedLevel = isObject(timed) && typeof timed.fault_level === "string" ? timed.fault_level : null;
    const levelText = timedLevel ?? faultLevel;
    const level = levelOf(levelText);
    if (levelText !== null && level === null) warn(faultProblem("unknown_level", { path: entryPath, level: quoted(levelText) }));
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
