"use client";

import { App, Button, Select, Space, Typography } from "antd";
import { useTranslations } from "next-intl";
import { useCallback, useMemo, type Ref } from "react";
import { isJsonObject, type JsonValue } from "@/lib/rank-table";
import { DEVICE_EDIT_FIELDS, podOfServer, type Edit, type GridField } from "@/lib/rank-table-workspace/edit";
import type { DeviceRow, IssueIndex, TableStructure } from "@/lib/rank-table-workspace/structure";
import { podNodeKey, rowsOfNode, selectedPodOf, selectedServerOf } from "@/lib/rank-table-workspace/tree-selection";
import { DeviceGrid, type DeviceGridHandle } from "./device-grid";
import { MiniTopology } from "./mini-topology";
import { ServerFields } from "./server-fields";
import { StructureTree } from "./structure-tree";

/** Height of the device grid (and of the JSON view, so switching tabs keeps the page still). */
export const GRID_HEIGHT = 520;

interface Props {
  table: JsonValue | undefined;
  structure: TableStructure;
  /** The structure the tree shows: may lag behind `structure` (a deferred value), so the grid does not wait for it. */
  treeStructure: TableStructure;
  issues: IssueIndex;
  /** The tree's selected node (keys of lib/rank-table-workspace/tree-selection.ts), which filters the grid. */
  selectedNode: string | undefined;
  onSelectNode: (node: string | undefined) => void;
  selectedRow: string | undefined;
  onSelectRow: (row: string) => void;
  gridRef: Ref<DeviceGridHandle>;
  readOnly: boolean;
  onEdit: (edit: Edit) => void;
}

/** The visual editor: the structure tree with its server actions and mini topology beside the grid of dies. */
export function VisualEditor({ table, structure, treeStructure, issues, selectedNode, onSelectNode, selectedRow, onSelectRow, gridRef, readOnly, onEdit }: Props) {
  const t = useTranslations("rankTables.editor");
  const { modal } = App.useApp();

  // Rows shown in the grid: everything, or the selected super pod's or server's dies.
  const visibleRows = useMemo(() => rowsOfNode(structure, selectedNode), [selectedNode, structure]);
  const selectedServer = selectedServerOf(selectedNode);
  const selectedPod = selectedPodOf(selectedNode);
  const serverPod = selectedServer === undefined || !isJsonObject(table) ? -1 : podOfServer(table, structure.servers.find((node) => node.index === selectedServer)?.serverId);

  const onCellChange = useCallback(
    (row: DeviceRow, field: GridField, value: string | undefined) =>
      onEdit(row.rank === undefined ? { type: "set", path: { server: row.server, device: row.device }, field, value } : { type: "setRank", rank: row.rank, field, value }),
    [onEdit],
  );
  const onRemoveRow = useCallback((row: DeviceRow) => onEdit(row.rank === undefined ? { type: "removeDevice", server: row.server, device: row.device } : { type: "removeRank", rank: row.rank }), [onEdit]);
  // A "2.0" table has a rank_list, no server_list: the server actions (which edit server_list) do not apply.
  const rankList = structure.fields !== undefined;

  const confirmRemoveServer = (server: number) =>
    modal.confirm({
      title: t("removeServerConfirm", { server: structure.servers.find((node) => node.index === server)?.serverId ?? "" }),
      content: t("undoHint"),
      okButtonProps: { danger: true },
      onOk: () => {
        onEdit({ type: "removeServer", server });
        onSelectNode(undefined);
      },
    });

  return (
    <div style={{ display: "grid", gridTemplateColumns: "minmax(220px, 280px) minmax(0, 1fr)", gap: 12 }}>
      <Space orientation="vertical" style={{ width: "100%" }}>
        {!readOnly && !rankList && (
          <Space wrap size={4}>
            <Button size="small" onClick={() => onEdit({ type: "addServer", pod: selectedPod ?? (serverPod >= 0 ? serverPod : undefined) })}>
              {t("addServer")}
            </Button>
            <Button size="small" disabled={selectedServer === undefined} onClick={() => selectedServer !== undefined && onEdit({ type: "addDevice", server: selectedServer })}>
              {t("addDie")}
            </Button>
            <Button size="small" danger disabled={selectedServer === undefined} onClick={() => selectedServer !== undefined && confirmRemoveServer(selectedServer)}>
              {t("removeServer")}
            </Button>
            {structure.superPodMode && selectedServer !== undefined && (
              <Select
                size="small"
                aria-label={t("moveTo")}
                placeholder={t("moveTo")}
                style={{ width: 150 }}
                value={serverPod >= 0 ? serverPod : undefined}
                options={structure.pods.filter((pod) => pod.index >= 0).map((pod) => ({ value: pod.index, label: t("superPodShort", { id: pod.superPodId }) }))}
                onChange={(pod: number) => {
                  onEdit({ type: "moveServer", server: selectedServer, pod });
                  onSelectNode(podNodeKey(pod));
                }}
              />
            )}
          </Space>
        )}
        <div style={{ border: "1px solid var(--ant-color-border-secondary, #f0f0f0)", borderRadius: 6 }}>
          <StructureTree structure={treeStructure} selected={selectedNode} onSelect={onSelectNode} height={selectedServer !== undefined || selectedPod !== undefined ? 300 : GRID_HEIGHT} />
        </div>
        <MiniTopology structure={structure} issues={issues} server={selectedServer} pod={selectedPod} />
      </Space>
      <div>
        {selectedNode && (
          <Space style={{ marginBottom: 8 }}>
            <Typography.Text type="secondary">{t("showing", { count: visibleRows.length, total: structure.rows.length })}</Typography.Text>
            <Button size="small" type="link" onClick={() => onSelectNode(undefined)}>
              {t("showAll")}
            </Button>
          </Space>
        )}
        {selectedServer !== undefined && !rankList && <ServerFields table={table} server={selectedServer} issues={issues.byPath} readOnly={readOnly} onChange={(field, value) => onEdit({ type: "set", path: { server: selectedServer }, field, value })} />}
        <DeviceGrid ref={gridRef} rows={visibleRows} fields={structure.fields ?? DEVICE_EDIT_FIELDS} readOnly={readOnly} selectedRow={selectedRow} onSelectRow={onSelectRow} onChange={onCellChange} onRemove={onRemoveRow} height={GRID_HEIGHT} />
      </div>
    </div>
  );
}
