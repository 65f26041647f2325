"use client";

import { Tree } from "antd";
import type { DataNode } from "antd/es/tree";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import type { Severity } from "@/lib/rank-table";
import type { IssueIndex, TableStructure } from "@/lib/rank-table-workspace/structure";

const marks: Record<Severity, string> = { error: "✖", warning: "▲", info: "" };

/** Super pods → servers → dies, virtualised; a mark (and its colour) shows where findings are. */
export function StructureTree({ structure, issues, selected, onSelect, height }: { structure: TableStructure; issues: IssueIndex; selected: string | undefined; onSelect: (key: string) => void; height: number }) {
  const t = useTranslations("rankTables.editor");
  const treeData = useMemo<DataNode[]>(() => {
    const serverNode = (server: TableStructure["servers"][number]): DataNode => {
      const severity = issues.byServer.get(server.index);
      return {
        key: `server:${server.index}`,
        title: (
          <span className={severity ? `rt-mark-${severity}` : undefined}>
            {severity ? `${marks[severity]} ` : ""}
            {server.serverId || t("unnamedServer")} <span style={{ opacity: 0.6 }}>({server.rowCount})</span>
          </span>
        ),
        children: structure.rows.slice(server.firstRow, server.firstRow + server.rowCount).map((row) => {
          const rowSeverity = issues.byRow.get(row.key);
          return {
            key: `die:${row.key}`,
            isLeaf: true,
            title: (
              <span className={rowSeverity ? `rt-mark-${rowSeverity}` : undefined}>
                {rowSeverity ? `${marks[rowSeverity]} ` : ""}
                {t("die", { device: row.values.device_id ?? "?", rank: row.values.rank_id ?? "?" })}
              </span>
            ),
          };
        }),
      };
    };
    if (!structure.superPodMode) return structure.pods[0]?.servers.map(serverNode) ?? [];
    return structure.pods.map((pod) => ({
      key: `pod:${pod.index}`,
      title: pod.index < 0 ? t("inNoSuperPod") : t("superPod", { id: pod.superPodId, count: pod.servers.length }),
      children: pod.servers.map(serverNode),
    }));
  }, [structure, issues, t]);

  return (
    <Tree
      aria-label={t("structure")}
      treeData={treeData}
      height={height}
      virtual
      blockNode
      showLine
      selectedKeys={selected ? [selected] : []}
      defaultExpandedKeys={structure.superPodMode ? structure.pods.map((pod) => `pod:${pod.index}`) : []}
      onSelect={(keys) => {
        const key = keys[0];
        if (key !== undefined) onSelect(String(key));
      }}
    />
  );
}
