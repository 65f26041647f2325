"use client";

import { Tree } from "antd";
import type { DataNode } from "antd/es/tree";
import { useTranslations } from "next-intl";
import { memo, useMemo, useState } from "react";
import type { Severity } from "@/lib/rank-table";
import type { DeviceRow, IssueIndex, PodNode, ServerNode, TableStructure } from "@/lib/rank-table-workspace/structure";

const marks: Record<Severity, string> = { error: "✖ ", warning: "▲ ", info: "" };

const sameItems = <T,>(a: readonly T[] | undefined, b: readonly T[]) => a !== undefined && a.length === b.length && a.every((item, index) => item === b[index]);

interface CachedNode {
  severity: Severity | undefined;
  node: DataNode;
}

/**
 * Super pods → servers → dies, virtualised. Dies are built only for expanded servers, and a node is rebuilt only when
 * what it shows changed (its server or die, its mark, whether it is open): an edit of one field does not rebuild the
 * thousand server nodes of a 16,384-rank table, and when nothing the tree shows changed it gets the same data and
 * does not re-render. A mark (and its colour) shows where findings are.
 */
export const StructureTree = memo(function StructureTree({ structure, issues, selected, onSelect, height }: { structure: TableStructure; issues: IssueIndex; selected: string | undefined; onSelect: (key: string) => void; height: number }) {
  const t = useTranslations("rankTables.editor");
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(structure.superPodMode && structure.pods.length <= 64 ? structure.pods.map((pod) => `pod:${pod.index}`) : []));
  const dieLabel = t("die", { device: "{device}", rank: "{rank}" });
  const unnamed = t("unnamedServer");
  // Caches live as long as the labels they were built with.
  const caches = useMemo(
    () => ({ dies: new WeakMap<DeviceRow, CachedNode>(), servers: new WeakMap<ServerNode, CachedNode & { open: boolean }>(), pods: new Map<number, { pod: PodNode; node: DataNode }>(), data: [] as DataNode[] }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- rebuilt when the language (hence the labels) changes
    [dieLabel, unnamed],
  );
  const treeData = useMemo<DataNode[]>(() => {
    const dieNode = (row: DeviceRow): DataNode => {
      const severity = issues.byRow.get(row.key);
      const cached = caches.dies.get(row);
      if (cached && cached.severity === severity) return cached.node;
      const node: DataNode = {
        key: `die:${row.key}`,
        isLeaf: true,
        className: severity ? `rt-mark-${severity}` : undefined,
        title: `${severity ? marks[severity] : ""}${dieLabel.replace("{device}", row.values.device_id ?? "?").replace("{rank}", row.values.rank_id ?? "?")}`,
      };
      caches.dies.set(row, { severity, node });
      return node;
    };
    const serverNode = (server: ServerNode): DataNode => {
      const key = `server:${server.index}`;
      const open = expanded.has(key);
      const severity = issues.byServer.get(server.index);
      const dies = open ? structure.rows.slice(server.firstRow, server.firstRow + server.rowCount).map(dieNode) : undefined;
      const cached = caches.servers.get(server);
      if (cached && cached.severity === severity && cached.open === open && (dies === undefined || sameItems(cached.node.children, dies))) return cached.node;
      const children = dies ?? (server.rowCount > 0 ? [{ key: `more:${server.index}`, title: "…", isLeaf: true, selectable: false }] : []);
      const node: DataNode = { key, className: severity ? `rt-mark-${severity}` : undefined, title: `${severity ? marks[severity] : ""}${server.serverId || unnamed} (${server.rowCount})`, children };
      caches.servers.set(server, { severity, open, node });
      return node;
    };
    const podNode = (pod: PodNode): DataNode => {
      const children = pod.servers.map(serverNode);
      const cached = caches.pods.get(pod.index);
      if (cached && cached.pod === pod && sameItems(cached.node.children, children)) return cached.node;
      const node: DataNode = { key: `pod:${pod.index}`, title: pod.index < 0 ? t("inNoSuperPod") : t("superPod", { id: pod.superPodId, count: pod.servers.length }), children };
      caches.pods.set(pod.index, { pod, node });
      return node;
    };
    const data = structure.superPodMode ? structure.pods.map(podNode) : (structure.pods[0]?.servers.map(serverNode) ?? []);
    if (sameItems(caches.data, data)) return caches.data;
    caches.data = data;
    return data;
  }, [structure, issues, t, expanded, dieLabel, unnamed, caches]);
  const expandedKeys = useMemo(() => [...expanded], [expanded]);
  const selectedKeys = useMemo(() => (selected ? [selected] : []), [selected]);

  return (
    <Tree
      aria-label={t("structure")}
      treeData={treeData}
      height={height}
      virtual
      blockNode
      showLine
      selectedKeys={selectedKeys}
      expandedKeys={expandedKeys}
      onExpand={(keys) => setExpanded(new Set(keys.map(String)))}
      onSelect={(keys) => {
        const key = keys[0];
        if (key !== undefined) onSelect(String(key));
      }}
    />
  );
});
