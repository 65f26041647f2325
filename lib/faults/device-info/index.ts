/**
 * The Ascend Device Plugin's device-info ConfigMap, by concern: `parse.ts` (the ConfigMap and its DeviceInfoCfg),
 * `faults.ts` (the `-Fault` list), `switch-info.ts` (A3's SwitchInfoCfg), `check-code.ts` (the plugin's CheckCode),
 * `fields.ts` (field readers and DeviceInfoError), `types.ts` (what the parser returns).
 */
export { computeCheckCode, goMarshalDeviceInfo } from "./check-code";
export { deviceIdOfName } from "./faults";
export { DeviceInfoError } from "./fields";
export { deviceInfoDataKey, deviceInfoNamePrefix, knownIndex, parseDeviceInfo } from "./parse";
export { switchFaultCode, switchInfoDataKey } from "./switch-info";
export type { DeviceInfoFault, DeviceInfoSnapshot, SwitchFault, SwitchInfoSnapshot } from "./types";
