/**
 * What the visual editor shows of a parsed table: one row per die (device) for the grid, the super pod → server
 * tree, and the findings indexed by the field, server and die they are about.
 */
import { isJsonObject, isLegacyLayout, type Issue, type JsonObject, type JsonValue, type Severity } from "@/lib/rank-table";
import { DEVICE_EDIT_FIELDS, type DeviceField, type GridField } from "./edit";
import { a5Structure, legacyStructure } from "./structure-layouts";

export interface DeviceRow {
  /** `${server}/${device}`: positions in server_list and the server's device list; `r${rank}` for a "2.0" rank. */
  key: string;
  server: number;
  device: number;
  serverId: string;
  values: Partial<Record<GridField, string>>;
  /** "2.0" tables: the rank's position in rank_list (its fields are at `/rank_list/${rank}/…`). */
  rank?: number;
}

export interface ServerNode {
  index: number;
  serverId: string;
  hostIp: string | undefined;
  /** Rows of this server's dies (indices into `rows`). */
  firstRow: number;
  rowCount: number;
  /** The server_list entry this node was read from: an unchanged entry (same object) lets the next structure reuse it. */
  source: JsonObject;
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
  /** The grid's columns when they are not DEVICE_EDIT_FIELDS ("2.0": A5_EDIT_FIELDS). */
  fields?: readonly GridField[];
  /** "2.0" tables: the rank_list the rows were read from and each rank's row (-1: none), so an edit re-derives only its rows. */
  a5?: { ranks: readonly JsonValue[]; rowOfRank: Int32Array };
}

/** Where a row's field sits in the table, for its findings. */
export function rowFieldPath(row: Pick<DeviceRow, "server" | "device" | "rank">, field: string): string {
  return row.rank === undefined ? `/server_list/${row.server}/device/${row.device}/${field}` : `/rank_list/${row.rank}/${field}`;
}

export function cellText(value: JsonValue | undefined): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null || value === undefined) return undefined;
  return JSON.stringify(value);
}

const sameItems = <T,>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((item, index) => item === b[index]);

/**
 * The grid rows, servers and super pods of a table. Given the structure of the table it was edited from, every row,
 * server node and pod node whose source is unchanged (the edit helpers share untouched servers and devices) is the
 * previous object, and an unchanged list is the previous list: memoised grid rows and tree nodes then re-render only
 * where the edit landed.
 */
export function tableStructure(table: JsonValue | undefined, previous?: TableStructure): TableStructure {
  const rows: DeviceRow[] = [];
  const servers: ServerNode[] = [];
  if (!isJsonObject(table)) return previous && previous.rows.length === 0 && previous.servers.length === 0 && previous.pods.length === 0 ? previous : { rows, servers, pods: [], superPodMode: false };
  if (isLegacyLayout(table)) return legacyStructure(table);
  if (table.version === "2.0" && Array.isArray(table.rank_list)) return a5Structure(table, previous);
  const previousServers = new Map(previous?.servers.map((node) => [node.index, node]));
  const serverList = Array.isArray(table.server_list) ? table.server_list : [];
  serverList.forEach((server, serverIndex) => {
    if (!isJsonObject(server)) return;
    const before = previousServers.get(serverIndex);
    if (before && before.source === server && before.firstRow === rows.length) {
      for (let row = before.firstRow; row < before.firstRow + before.rowCount; row++) rows.push(previous!.rows[row]!);
      servers.push(before);
      return;
    }
    const serverId = cellText(server.server_id) ?? "";
    const node: ServerNode = { index: serverIndex, serverId, hostIp: cellText(server.host_ip), firstRow: rows.length, rowCount: 0, source: server };
    // Dies of the same server entry (moved in the grid by an earlier insertion) or of an edited one keep their rows.
    const devicesBefore = before && before.serverId === serverId && Array.isArray(before.source.device) ? before.source.device : [];
    const devices = Array.isArray(server.device) ? server.device : [];
    devices.forEach((device, deviceIndex) => {
      if (!isJsonObject(device)) return;
      const reusable = devicesBefore[deviceIndex] === device ? previous!.rows[before!.firstRow + deviceIndex] : undefined;
      if (reusable && reusable.device === deviceIndex && reusable.server === serverIndex) {
        rows.push(reusable);
        return;
      }
      const values = {} as Record<DeviceField, string | undefined>;
      for (const field of DEVICE_EDIT_FIELDS) values[field] = cellText(device[field]);
      rows.push({ key: `${serverIndex}/${deviceIndex}`, server: serverIndex, device: deviceIndex, serverId, values });
    });
    node.rowCount = rows.length - node.firstRow;
    servers.push(node);
  });
  const superPodMode = Array.isArray(table.super_pod_list);
  const pods: PodNode[] = [];
  const previousPods = new Map(previous?.pods.map((pod) => [pod.index, pod]));
  const pod = (index: number, superPodId: string, members: ServerNode[]): PodNode => {
    const before = previousPods.get(index);
    return before && before.superPodId === superPodId && sameItems(before.servers, members) ? before : { index, superPodId, servers: members };
  };
  if (superPodMode) {
    const byId = new Map<string, ServerNode>();
    for (const server of servers) if (!byId.has(server.serverId)) byId.set(server.serverId, server);
    const listed = new Set<ServerNode>();
    (table.super_pod_list as JsonValue[]).forEach((entry, index) => {
      if (!isJsonObject(entry)) return;
      const members: ServerNode[] = [];
      for (const member of Array.isArray(entry.server_list) ? entry.server_list : []) {
        const server = isJsonObject(member) ? byId.get(cellText(member.server_id) ?? "") : undefined;
        if (server && !listed.has(server)) {
          members.push(server);
          listed.add(server);
        }
      }
      pods.push(pod(index, cellText(entry.super_pod_id) ?? "", members));
    });
    const orphans = servers.filter((server) => !listed.has(server));
    if (orphans.length) pods.push(pod(-1, "", orphans));
  } else {
    pods.push(pod(-1, "", servers));
  }
  if (!previous) return { rows, servers, pods, superPodMode };
  const next = {
    rows: sameItems(previous.rows, rows) ? previous.rows : rows,
    servers: sameItems(previous.servers, servers) ? previous.servers : servers,
    pods: sameItems(previous.pods, pods) ? previous.pods : pods,
    superPodMode,
  };
  return next.rows === previous.rows && next.servers === previous.servers && next.pods === previous.pods && superPodMode === previous.superPodMode ? previous : next;
}

/** A grid record: which row it shows (by key and position) and the row as it was when the slot was made. */
export interface GridSlot {
  key: string;
  index: number;
  row: DeviceRow;
}

/**
 * The grid's records. While the rows keep their keys in the same order (any field edit), these are the previous
 * slots, the same list: the grid then has nothing to re-lay out, and each cell reads its current row itself.
 */
export function gridSlots(rows: readonly DeviceRow[], previous?: GridSlot[]): GridSlot[] {
  if (previous && previous.length === rows.length && previous.every((slot, index) => slot.key === rows[index]!.key)) return previous;
  return rows.map((row, index) => ({ key: row.key, index, row }));
}

/** The current row of a slot; the slot's own row while the rows it was made from are not there yet. */
export function slotRow(rows: readonly DeviceRow[], slot: GridSlot): DeviceRow {
  const row = rows[slot.index];
  return row?.key === slot.key ? row : slot.row;
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
const rankPathPattern = /^\/rank_list\/(\d+)/;

function worse(current: Severity | undefined, next: Severity): Severity {
  return current === undefined || rank[next] < rank[current] ? next : current;
}

const sameIssue = (a: Issue, b: Issue) => a.code === b.code && a.severity === b.severity && a.message === b.message && a.line === b.line && a.column === b.column;

/**
 * Indexes findings by field, die and server. Given the previous index, a field whose findings did not change keeps
 * its previous list (the same array), so a field marker that subscribes to its own list re-renders only when its
 * findings change, not on every report.
 */
export function indexIssues(issues: readonly Issue[], previous?: IssueIndex): IssueIndex {
  const byPath = new Map<string, Issue[]>();
  const byRow = new Map<string, Severity>();
  const byServer = new Map<number, Severity>();
  for (const issue of issues) {
    const list = byPath.get(issue.path);
    if (list) list.push(issue);
    else byPath.set(issue.path, [issue]);
    const rank = rankPathPattern.exec(issue.path);
    if (rank) {
      const key = `r${rank[1]}`;
      byRow.set(key, worse(byRow.get(key), issue.severity));
      continue;
    }
    const match = pathPattern.exec(issue.path);
    if (!match) continue;
    const server = Number(match[1]);
    byServer.set(server, worse(byServer.get(server), issue.severity));
    if (match[2] !== undefined) {
      const key = `${server}/${match[2]}`;
      byRow.set(key, worse(byRow.get(key), issue.severity));
    }
  }
  if (previous) {
    for (const [path, list] of byPath) {
      const before = previous.byPath.get(path);
      if (before && before.length === list.length && before.every((issue, index) => sameIssue(issue, list[index]!))) byPath.set(path, before);
    }
  }
  return { byPath, byRow, byServer };
}

/** The grid row (`r${rank}`) and field a finding about a "2.0" rank points at. */
export function rankIssueTarget(path: string): { rowKey: string; field?: string } | undefined {
  const match = /^\/rank_list\/(\d+)(?:\/([^/]+))?/.exec(path);
  return match ? { rowKey: `r${match[1]}`, ...(match[2] === undefined ? {} : { field: match[2] }) } : undefined;
}

/** The grid cell a finding points at: the die row and the field, when it is about one. */
export function issueTarget(path: string): { server: number; device?: number; field?: string } | undefined {
  const match = /^\/server_list\/(\d+)(?:\/device\/(\d+)(?:\/([^/]+))?|\/([^/]+))?/.exec(path);
  if (!match) return undefined;
  return { server: Number(match[1]), device: match[2] === undefined ? undefined : Number(match[2]), field: match[3] ?? match[4] };
}
