/**
 * What the visual editor shows of a parsed table: one row per die (device) for the grid, the super pod → server
 * tree, and the findings indexed by the field, server and die they are about.
 */
import { isJsonObject, type Issue, type JsonObject, type JsonValue, type Severity } from "@/lib/rank-table";
import { DEVICE_EDIT_FIELDS, type DeviceField } from "./edit";

export interface DeviceRow {
  /** `${server}/${device}`: positions in server_list and the server's device list. */
  key: string;
  server: number;
  device: number;
  serverId: string;
  values: Record<DeviceField, string | undefined>;
}

export interface ServerNode {
  index: number;
  serverId: string;
  hostIp: string | undefined;
  /** Rows of this server's dies (indices into `rows`). */
  firstRow: number;
  rowCount: number;
}

export interface PodNode {
  /** Position in super_pod_list; -1 for servers no super pod lists. */
  index: number;
  superPodId: string;
  servers: ServerNode[];
}

export interface TableStructure {
  rows: DeviceRow[];
  servers: ServerNode[];
  pods: PodNode[];
  superPodMode: boolean;
}

export function cellText(value: JsonValue | undefined): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null || value === undefined) return undefined;
  return JSON.stringify(value);
}

export function tableStructure(table: JsonValue | undefined): TableStructure {
  const rows: DeviceRow[] = [];
  const servers: ServerNode[] = [];
  if (!isJsonObject(table)) return { rows, servers, pods: [], superPodMode: false };
  const serverList = Array.isArray(table.server_list) ? table.server_list : [];
  serverList.forEach((server, serverIndex) => {
    if (!isJsonObject(server)) return;
    const serverId = cellText(server.server_id) ?? "";
    const node: ServerNode = { index: serverIndex, serverId, hostIp: cellText(server.host_ip), firstRow: rows.length, rowCount: 0 };
    const devices = Array.isArray(server.device) ? server.device : [];
    devices.forEach((device, deviceIndex) => {
      if (!isJsonObject(device)) return;
      const values = {} as Record<DeviceField, string | undefined>;
      for (const field of DEVICE_EDIT_FIELDS) values[field] = cellText(device[field]);
      rows.push({ key: `${serverIndex}/${deviceIndex}`, server: serverIndex, device: deviceIndex, serverId, values });
    });
    node.rowCount = rows.length - node.firstRow;
    servers.push(node);
  });
  const superPodMode = Array.isArray(table.super_pod_list);
  const pods: PodNode[] = [];
  if (superPodMode) {
    const byId = new Map<string, ServerNode>();
    for (const server of servers) if (!byId.has(server.serverId)) byId.set(server.serverId, server);
    const listed = new Set<ServerNode>();
    (table.super_pod_list as JsonValue[]).forEach((pod, index) => {
      if (!isJsonObject(pod)) return;
      const members: ServerNode[] = [];
      for (const member of Array.isArray(pod.server_list) ? pod.server_list : []) {
        const server = isJsonObject(member) ? byId.get(cellText(member.server_id) ?? "") : undefined;
        if (server && !listed.has(server)) {
          members.push(server);
          listed.add(server);
        }
      }
      pods.push({ index, superPodId: cellText((pod as JsonObject).super_pod_id) ?? "", servers: members });
    });
    const orphans = servers.filter((server) => !listed.has(server));
    if (orphans.length) pods.push({ index: -1, superPodId: "", servers: orphans });
  } else {
    pods.push({ index: -1, superPodId: "", servers });
  }
  return { rows, servers, pods, superPodMode };
}

const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export interface IssueIndex {
  /** Findings per JSON Pointer. */
  byPath: Map<string, Issue[]>;
  /** Worst severity per die row key (`server/device`), for findings on the die or its fields. */
  byRow: Map<string, Severity>;
  /** Worst severity per server index (its own fields, and its dies). */
  byServer: Map<number, Severity>;
}

const pathPattern = /^\/server_list\/(\d+)(?:\/device\/(\d+))?/;

function worse(current: Severity | undefined, next: Severity): Severity {
  return current === undefined || rank[next] < rank[current] ? next : current;
}

export function indexIssues(issues: readonly Issue[]): IssueIndex {
  const byPath = new Map<string, Issue[]>();
  const byRow = new Map<string, Severity>();
  const byServer = new Map<number, Severity>();
  for (const issue of issues) {
    const list = byPath.get(issue.path);
    if (list) list.push(issue);
    else byPath.set(issue.path, [issue]);
    const match = pathPattern.exec(issue.path);
    if (!match) continue;
    const server = Number(match[1]);
    byServer.set(server, worse(byServer.get(server), issue.severity));
    if (match[2] !== undefined) {
      const key = `${server}/${match[2]}`;
      byRow.set(key, worse(byRow.get(key), issue.severity));
    }
  }
  return { byPath, byRow, byServer };
}

/** The grid cell a finding points at: the die row and the field, when it is about one. */
export function issueTarget(path: string): { server: number; device?: number; field?: string } | undefined {
  const match = /^\/server_list\/(\d+)(?:\/device\/(\d+)(?:\/([^/]+))?|\/([^/]+))?/.exec(path);
  if (!match) return undefined;
  return { server: Number(match[1]), device: match[2] === undefined ? undefined : Number(match[2]), field: match[3] ?? match[4] };
}
