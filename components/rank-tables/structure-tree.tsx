"use client";

import { Tree } from "antd";
import type { DataNode } from "antd/es/tree";
import { useTranslations } from "next-intl";
import { memo, useCallback, useMemo, useState } from "react";
import type { Severity } from "@/lib/rank-table";
import type { DeviceRow, PodNode, ServerNode, TableStructure } from "@/lib/rank-table-workspace/structure";
import { dieNodeKey, podNodeKey, serverNodeKey } from "@/lib/rank-table-workspace/tree-selection";
import { useRowSeverity, useServerSeverity } from "./findings-store";

const marks: Record<Severity, string> = { error: "✖ ", warning: "▲ ", info: "" };

interface StructureNode extends DataNode {
  label: string;
  /** Whose findings mark this node. */
  server?: number;
  rowKey?: string;
  children?: StructureNode[];
}

const sameItems = <T,>(a: readonly T[] | undefined, b: readonly T[]) => a !== undefined && a.length === b.length && a.every((item, index) => item === b[index]);

/** A node's label with the ✖/▲ mark (and colour) of its findings, read from the findings store on its own. */
function NodeTitle({ node }: { node: StructureNode }) {
  const serverSeverity = useServerSeverity(node.server);
  const rowSeverity = useRowSeverity(node.rowKey);
  const severity = serverSeverity ?? rowSeverity;
  return <span className={severity ? `rt-mark-${severity}` : undefined}>{`${severity ? marks[severity] : ""}${node.label}`}</span>;
}

/** The nodes of the last build, by key: a node whose label and children are unchanged is handed back as it was. */
class NodeCache {
  private nodes = new Map<string, StructureNode>();
  private data: StructureNode[] = [];

  reuse(node: StructureNode): StructureNode {
    const before = this.nodes.get(String(node.key));
    const same = before && before.label === node.label && before.server === node.server && before.rowKey === node.rowKey && (node.children === undefined ? before.children === undefined : sameItems(before.children, node.children));
    if (same) return before;
    this.nodes.set(String(node.key), node);
    return node;
  }

  list(data: StructureNode[]): StructureNode[] {
    if (!sameItems(this.data, data)) this.data = data;
    return this.data;
  }
}

/** Servers shown at most by opening every super pod at first. */
const OPEN_SERVERS_AT_MOST = 1024;

const titleRender = (node: StructureNode) => <NodeTitle node={node} />;

/**
 * Super pods → servers → dies, virtualised. Servers are built only for expanded pods and dies only for expanded
 * servers, and a node is rebuilt only when its label or children changed, so an edit that changes nothing the tree
 * shows hands the tree the same data (it would otherwise re-index its thousands of nodes). Marks for findings are
 * drawn by each node's title on its own.
 */
export const StructureTree = memo(function StructureTree({
  structure,
  selected,
  onSelect,
  height,
  dies = true,
}: {
  structure: TableStructure;
  selected: string | undefined;
  onSelect: (key: string) => void;
  height: number;
  /** False when the structure has no rows (a table the worker keeps): servers are then leaves. */
  dies?: boolean;
}) {
  const t = useTranslations("rankTables.editor");
  // Until the user opens or closes a node: the super pods open when there are not too many of them, nor of their
  // servers (the tree lays out every open node: 8,256 for a 524,288-rank table, in one task).
  const [chosen, setExpanded] = useState<Set<string> | undefined>();
  // Keyed by content, so an edit that rebuilds a pod does not hand the tree new expanded keys (it would re-flatten).
  const openPods = structure.superPodMode && structure.pods.length <= 64 && structure.servers.length <= OPEN_SERVERS_AT_MOST ? structure.pods.map((pod) => podNodeKey(pod.index)).join(" ") : "";
  const expanded = useMemo(() => chosen ?? new Set(openPods ? openPods.split(" ") : []), [chosen, openPods]);
  const dieLabel = t("die", { device: "{device}", rank: "{rank}" });
  const unnamed = t("unnamedServer");
  const [cache] = useState(() => new NodeCache());
  const treeData = useMemo<StructureNode[]>(() => {
    const reuse = (node: StructureNode) => cache.reuse(node);
    const dieNode = (row: DeviceRow) => reuse({ key: dieNodeKey(row.key), isLeaf: true, rowKey: row.key, label: dieLabel.replace("{device}", row.values.device_id ?? "?").replace("{rank}", row.values.rank_id ?? "?") });
    // A closed node's children are left out, one placeholder standing for them: the tree indexes every node it is
    // given, and the 8,256 of a 524,288-rank table's pods and servers were 50-80 ms of each of the open's renders
    // (issue 21: no task over 50 ms).
    const childrenOf = (key: string, count: number, open: () => StructureNode[]) =>
      expanded.has(key) ? open() : count > 0 ? [reuse({ key: `more:${key}`, label: "…", isLeaf: true, selectable: false })] : [];
    const serverNode = (server: ServerNode) => {
      const key = serverNodeKey(server.index);
      const label = `${server.serverId || unnamed} (${server.rowCount})`;
      if (!dies) return reuse({ key, server: server.index, isLeaf: true, label });
      const children = childrenOf(key, server.rowCount, () => structure.rows.slice(server.firstRow, server.firstRow + server.rowCount).map(dieNode));
      return reuse({ key, server: server.index, label, children });
    };
    const podNode = (pod: PodNode) => {
      const key = podNodeKey(pod.index);
      const children = childrenOf(key, pod.servers.length, () => pod.servers.map(serverNode));
      return reuse({ key, label: pod.index < 0 ? t("inNoSuperPod") : t("superPod", { id: pod.superPodId, count: pod.servers.length }), children });
    };
    const data = structure.superPodMode ? structure.pods.map(podNode) : (structure.pods[0]?.servers.map(serverNode) ?? []);
    return cache.list(data);
  }, [structure, t, expanded, dieLabel, unnamed, cache, dies]);
  const expandedKeys = useMemo(() => [...expanded], [expanded]);
  const selectedKeys = useMemo(() => (selected ? [selected] : []), [selected]);
  const onExpand = useCallback((keys: React.Key[]) => setExpanded(new Set(keys.map(String))), []);

  return (
    <Tree<StructureNode>
      aria-label={t("structure")}
      treeData={treeData}
      titleRender={titleRender}
      height={height}
      virtual
      blockNode
      showLine
      selectedKeys={selectedKeys}
      expandedKeys={expandedKeys}
      onExpand={onExpand}
      onSelect={(keys) => {
        const key = keys[0];
        if (key !== undefined) onSelect(String(key));
      }}
    />
  );
});
