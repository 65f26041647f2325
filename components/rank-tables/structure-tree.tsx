"use client";

import { Tree } from "antd";
import type { DataNode } from "antd/es/tree";
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import type { Severity } from "@/lib/rank-table";
import type { IssueIndex, TableStructure } from "@/lib/rank-table-workspace/structure";

const marks: Record<Severity, string> = { error: "✖ ", warning: "▲ ", info: "" };

/**
 * Super pods → servers → dies, virtualised. Dies are built only for expanded servers (a 16,384-rank table would
 * otherwise rebuild 17,000 nodes on every edit); a mark (and its colour) shows where findings are.
 */
export function StructureTree({ structure, issues, selected, onSelect, height }: { structure: TableStructure; issues: IssueIndex; selected: string | undefined; onSelect: (key: string) => void; height: number }) {
  const t = useTranslations("rankTables.editor");
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(structure.superPodMode && structure.pods.length <= 64 ? structure.pods.map((pod) => `pod:${pod.index}`) : []));
  const dieLabel = t("die", { device: "{device}", rank: "{rank}" });
  const treeData = useMemo<DataNode[]>(() => {
    const serverNode = (server: TableStructure["servers"][number]): DataNode => {
      const key = `server:${server.index}`;
      const severity = issues.byServer.get(server.index);
      const children: DataNode[] = expanded.has(key)
        ? structure.rows.slice(server.firstRow, server.firstRow + server.rowCount).map((row) => {
            const rowSeverity = issues.byRow.get(row.key);
            return {
              key: `die:${row.key}`,
              isLeaf: true,
              className: rowSeverity ? `rt-mark-${rowSeverity}` : undefined,
              title: `${rowSeverity ? marks[rowSeverity] : ""}${dieLabel.replace("{device}", row.values.device_id ?? "?").replace("{rank}", row.values.rank_id ?? "?")}`,
            };
          })
        : server.rowCount > 0
          ? [{ key: `more:${server.index}`, title: "…", isLeaf: true, selectable: false }]
          : [];
      return {
        key,
        className: severity ? `rt-mark-${severity}` : undefined,
        title: `${severity ? marks[severity] : ""}${server.serverId || t("unnamedServer")} (${server.rowCount})`,
        children,
      };
    };
    if (!structure.superPodMode) return structure.pods[0]?.servers.map(serverNode) ?? [];
    return structure.pods.map((pod) => ({
      key: `pod:${pod.index}`,
      title: pod.index < 0 ? t("inNoSuperPod") : t("superPod", { id: pod.superPodId, count: pod.servers.length }),
      children: pod.servers.map(serverNode),
    }));
  }, [structure, issues, t, expanded, dieLabel]);

  return (
    <Tree
      aria-label={t("structure")}
      treeData={treeData}
      height={height}
      virtual
      blockNode
      showLine
      selectedKeys={selected ? [selected] : []}
      expandedKeys={[...expanded]}
      onExpand={(keys) => setExpanded(new Set(keys.map(String)))}
      onSelect={(keys) => {
        const key = keys[0];
        if (key !== undefined) onSelect(String(key));
      }}
    />
  );
}
