/**
 * The table as the validation worker holds it when the main thread does not (issue 21 item 3: a 524,288-rank table
 * cannot be cloned to the main thread, 15 s for the structured clone alone). The worker keeps the table, its
 * undo/redo history and its grid rows; the main thread gets a summary (counts, the super pod → server tree without
 * the dies) and asks for the rows in view. Pure: the worker routes messages to it, tests drive it directly.
 */
import type { JsonValue } from "@/lib/rank-table";
import { applyEdit, pushHistory, redo, startHistory, undo, type Edit, type GridField, type History, DEVICE_EDIT_FIELDS } from "./edit";
import { rankIssueTarget, issueTarget, tableStructure, type DeviceRow, type TableStructure } from "./structure";
import { rowsOfNode } from "./tree-selection";

/** Tables with at least this many grid rows stay in the worker; smaller ones are handed to the main thread whole. */
export const HOSTED_FROM_ROWS = 8192;

export interface SummaryServer {
  index: number;
  serverId: string;
  hostIp: string | undefined;
  firstRow: number;
  rowCount: number;
}

export interface TableSummary {
  rows: number;
  fields: readonly GridField[];
  superPodMode: boolean;
  /** "2.0" (rank_list) tables: the server actions (which edit server_list) do not apply. */
  rankList: boolean;
  pods: { index: number; superPodId: string; servers: SummaryServer[] }[];
  /** Counts every history step: rows cached for an older revision are stale. */
  revision: number;
  canUndo: boolean;
  canRedo: boolean;
}

const serverOf = ({ index, serverId, hostIp, firstRow, rowCount }: SummaryServer): SummaryServer => ({ index, serverId, hostIp, firstRow, rowCount });

export class TableHost {
  private history: History;
  private structure: TableStructure;
  private revision = 0;
  /** The rows of the last node asked for (a super pod's are not one range of all the rows). */
  private nodeRows: { node: string | undefined; structure: TableStructure; rows: DeviceRow[] } | undefined;

  constructor(table: JsonValue) {
    this.history = startHistory(table);
    this.structure = tableStructure(table);
  }

  get table(): JsonValue {
    return this.history.present;
  }

  get rowCount(): number {
    return this.structure.rows.length;
  }

  summary(): TableSummary {
    const { structure, history } = this;
    return {
      rows: structure.rows.length,
      fields: structure.fields ?? DEVICE_EDIT_FIELDS,
      superPodMode: structure.superPodMode,
      rankList: structure.fields !== undefined,
      pods: structure.pods.map((pod) => ({ index: pod.index, superPodId: pod.superPodId, servers: pod.servers.map(serverOf) })),
      revision: this.revision,
      canUndo: history.past.length > 0,
      canRedo: history.future.length > 0,
    };
  }

  private rowsOf(node: string | undefined): DeviceRow[] {
    if (this.nodeRows === undefined || this.nodeRows.node !== node || this.nodeRows.structure !== this.structure) this.nodeRows = { node, structure: this.structure, rows: rowsOfNode(this.structure, node) };
    return this.nodeRows.rows;
  }

  /** Rows `from` to `to` (exclusive) of the node's rows (all rows without a node), and how many it has. */
  rows(node: string | undefined, from: number, to: number): { total: number; rows: DeviceRow[] } {
    const rows = this.rowsOf(node);
    return { total: rows.length, rows: rows.slice(Math.max(0, from), Math.max(0, to)) };
  }

  /** Where a finding's row is among the node's rows (-1: not there), with its field. */
  locate(node: string | undefined, path: string): { index: number; rowKey?: string; field?: string } {
    const target = rankIssueTarget(path);
    const device = target ? undefined : issueTarget(path);
    const rowKey = target?.rowKey ?? (device?.device !== undefined ? `${device.server}/${device.device}` : undefined);
    const field = target?.field ?? device?.field;
    const rows = this.rowsOf(node);
    if (rowKey !== undefined) {
      const index = rows.findIndex((row) => row.key === rowKey);
      return { index, rowKey, ...(field === undefined ? {} : { field }) };
    }
    if (device !== undefined) return { index: rows.findIndex((row) => row.server === device.server) };
    return { index: -1 };
  }

  private step(history: History): boolean {
    if (history === this.history) return false;
    this.history = history;
    this.structure = tableStructure(history.present, this.structure);
    this.revision++;
    return true;
  }

  /** Applies an edit as one undoable step; false when it changed nothing. */
  edit(edit: Edit): boolean {
    const next = applyEdit(this.history.present, edit);
    return next !== this.history.present && this.step(pushHistory(this.history, next));
  }

  undo(): boolean {
    return this.step(undo(this.history));
  }

  redo(): boolean {
    return this.step(redo(this.history));
  }

  /** True when the tree (servers, pods) or the row count changed in the last step: the summary must be sent again. */
  treeChangedSince(summary: TableSummary): boolean {
    const { structure } = this;
    if (structure.rows.length !== summary.rows || structure.pods.length !== summary.pods.length) return true;
    return structure.pods.some((pod, index) => {
      const before = summary.pods[index]!;
      return pod.superPodId !== before.superPodId || pod.servers.length !== before.servers.length || pod.servers.some((server, at) => {
        const old = before.servers[at]!;
        return server.serverId !== old.serverId || server.firstRow !== old.firstRow || server.rowCount !== old.rowCount || server.hostIp !== old.hostIp;
      });
    });
  }
}
