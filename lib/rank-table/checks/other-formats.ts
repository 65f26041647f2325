/**
 * Files that look like rank tables but are not HCCL's (RT006): named, with what reads them, and their embedded
 * devices still checked with the address and duplicate rules of "1.0" (RT031, RT032, RT035, RT036), so the user
 * gets useful findings rather than a wall of missing-field errors.
 *
 * - LLM-DataDist prefill/decode tables: `prefill_device_list` / `decode_device_list` of {server_id, device_id,
 *   device_ip, cluster_id}, usually labelled "1.2" (real files: `Elpolarmas/Ascend-PD-TDM@1baa7139:ranktable.json`,
 *   `Elysia-Yg/dynamicPD@6aab8ff0:ranktable.json`); read by the inference framework's LLM-DataDist link setup.
 * - MindIE's global rank table: `server_group_list[{group_id, deploy_server, server_count, server_list[{server_id,
 *   server_ip, device[{device_id, device_ip, rank_id, …}]}], super_pod_list}]`, written by MindCluster ClusterD for
 *   prefill/decode deployments (`Ascend/mind-cluster:component/clusterd/pkg/domain/epranktable/ranktable_util.go`,
 *   `PdDeployModeRankTable`) and read by MindIE Server.
 */
import type { Findings } from "../findings";
import type { LocalizedText } from "../messages";
import { isJsonObject, MAX_DEVICE_ID, type JsonObject, type JsonValue, type TableLayout } from "../model";
import { addressKey, parseWholeNumber, type AddressKey } from "../net";
import { rememberFirst } from "./context";

interface OtherFormat {
  layout: Extract<TableLayout, "llm-datadist" | "mindie-global">;
  format: LocalizedText;
  reader: LocalizedText;
}

const LLM_DATADIST: OtherFormat = {
  layout: "llm-datadist",
  format: { en: "an LLM-DataDist prefill/decode device table (prefill_device_list/decode_device_list)", zh: " LLM-DataDist 的 prefill/decode 设备表（prefill_device_list/decode_device_list）" },
  reader: { en: "the inference framework's LLM-DataDist link setup", zh: "推理框架的 LLM-DataDist 建链" },
};
const MINDIE_GLOBAL: OtherFormat = {
  layout: "mindie-global",
  format: { en: "MindIE's global rank table (server_group_list, written by MindCluster ClusterD)", zh: " MindIE 的全局 rank table（server_group_list，由 MindCluster ClusterD 生成）" },
  reader: { en: "MindIE Server (prefill/decode deployment)", zh: "MindIE Server（PD 分离部署）" },
};

export function otherFormatOf(root: JsonObject): OtherFormat | undefined {
  if (root.prefill_device_list !== undefined || root.decode_device_list !== undefined) return LLM_DATADIST;
  if (root.server_group_list !== undefined) return MINDIE_GLOBAL;
  return undefined;
}

interface EmbeddedDevice {
  path: string;
  serverId: string | undefined;
  device: JsonObject;
}

/** Reports RT006 and checks the embedded devices; returns how many servers and devices were found. */
export function checkOtherFormat(root: JsonObject, format: OtherFormat, findings: Findings): { servers: number; devices: number } {
  findings.add("RT006", "", { format: format.format, reader: format.reader });
  const devices = format === LLM_DATADIST ? pdDevices(root) : mindieDevices(root);
  const byIp = new Map<AddressKey, EmbeddedDevice>();
  const byServerDevice = new Map<string, EmbeddedDevice>();
  const servers = new Set<string | undefined>();
  for (const entry of devices) {
    servers.add(entry.serverId);
    const deviceId = text(entry.device.device_id);
    const number = deviceId === undefined ? undefined : parseWholeNumber(deviceId);
    if (deviceId !== undefined && (number === undefined || number > MAX_DEVICE_ID)) findings.add("RT031", `${entry.path}/device_id`, { value: deviceId });
    else if (number !== undefined && entry.serverId !== undefined) {
      const earlier = rememberFirst(byServerDevice, `${number}\u0000${entry.serverId}`, entry);
      if (earlier) findings.add("RT032", `${entry.path}/device_id`, { value: deviceId!, other: earlier.path });
    }
    const deviceIp = text(entry.device.device_ip);
    if (deviceIp === undefined) continue;
    const key = addressKey(deviceIp);
    if (key === undefined) findings.add("RT035", `${entry.path}/device_ip`, { value: deviceIp });
    else {
      const earlier = rememberFirst(byIp, key, entry);
      if (earlier) findings.add("RT036", `${entry.path}/device_ip`, { value: deviceIp, other: earlier.path });
    }
  }
  return { servers: servers.size, devices: devices.length };
}

function text(value: JsonValue | undefined): string | undefined {
  if (typeof value === "number") return String(value);
  return typeof value === "string" && value !== "" ? value : undefined;
}

function pdDevices(root: JsonObject): EmbeddedDevice[] {
  const devices: EmbeddedDevice[] = [];
  for (const key of ["prefill_device_list", "decode_device_list"] as const) {
    const list = root[key];
    if (!Array.isArray(list)) continue;
    list.forEach((device, index) => {
      if (isJsonObject(device)) devices.push({ path: `/${key}/${index}`, serverId: text(device.server_id), device });
    });
  }
  return devices;
}

function mindieDevices(root: JsonObject): EmbeddedDevice[] {
  const devices: EmbeddedDevice[] = [];
  const groups = root.server_group_list;
  if (!Array.isArray(groups)) return devices;
  groups.forEach((group, groupIndex) => {
    if (!isJsonObject(group) || !Array.isArray(group.server_list)) return;
    group.server_list.forEach((server, serverIndex) => {
      if (!isJsonObject(server) || !Array.isArray(server.device)) return;
      const serverPath = `/server_group_list/${groupIndex}/server_list/${serverIndex}`;
      // A server may appear in several groups (the same host for prefill and decode), so duplicates are per group.
      const serverId = `${groupIndex}\u0000${text(server.server_id) ?? serverPath}`;
      server.device.forEach((device, deviceIndex) => {
        if (isJsonObject(device)) devices.push({ path: `${serverPath}/device/${deviceIndex}`, serverId, device });
      });
    });
  });
  return devices;
}
