import { createHash } from "node:crypto";

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

