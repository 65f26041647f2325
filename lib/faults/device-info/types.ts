import type { OmittedFindings } from "../../report-limits";
import type { FaultProblem } from "../errors";
import type { FaultLevel } from "../levels";
import type { FaultKind } from "../model";

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
  /** Warnings past the report cap (lib/report-limits.ts), counted per reason; absent when all are listed. */
  omittedWarnings?: OmittedFindings;
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

