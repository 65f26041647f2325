"use client";

import { useCallback, useLayoutEffect, useRef, useState } from "react";
import type { Issue } from "@/lib/rank-table";
import { issueTarget, rankIssueTarget, type TableStructure } from "@/lib/rank-table-workspace/structure";
import { serverNodeKey } from "@/lib/rank-table-workspace/tree-selection";
import type { DeviceGridHandle } from "./device-grid";
import type { RawJsonHandle } from "./raw-json-view";

/**
 * The selection in the visual editor (a tree node, a grid row) and `selectIssue`, which goes to a finding: its field
 * in the grid, its server, or its line in the JSON view (`tab` is the open view; `onTabChange` opens the JSON view).
 * `gridRef` and `rawRef` go to the grid and the JSON view.
 */
export function useFindingSelection(tab: string, structure: TableStructure, onTabChange: (tab: "json") => void) {
  const [selectedNode, setSelectedNode] = useState<string | undefined>();
  const [selectedRow, setSelectedRow] = useState<string | undefined>();
  const gridRef = useRef<DeviceGridHandle>(null);
  const rawRef = useRef<RawJsonHandle>(null);

  // What selecting a finding needs, as of the last render: read when a finding is clicked, so the handler (and the
  // memoised problems panel) stays the same across edits.
  const selectionContext = useRef({ tab, structure, onTabChange });
  useLayoutEffect(() => {
    selectionContext.current = { tab, structure, onTabChange };
  });
  const selectIssue = useCallback((issue: Pick<Issue, "path" | "line" | "column">) => {
    const { tab, structure, onTabChange } = selectionContext.current;
    if (tab === "json") {
      if (issue.line) rawRef.current?.select(issue.line, issue.column ?? 1);
      return;
    }
    const rank = rankIssueTarget(issue.path);
    if (rank && structure.rows.some((row) => row.key === rank.rowKey)) {
      setSelectedNode(undefined);
      setSelectedRow(rank.rowKey);
      setTimeout(() => gridRef.current?.focus(rank.rowKey, rank.field), 30);
      return;
    }
    const target = issueTarget(issue.path);
    if (!target) {
      if (issue.line) {
        onTabChange("json");
        setTimeout(() => rawRef.current?.select(issue.line!, issue.column ?? 1), 50);
      }
      return;
    }
    const server = structure.servers.find((node) => node.index === target.server);
    setSelectedNode(server ? serverNodeKey(server.index) : undefined);
    const rowKey = target.device !== undefined ? `${target.server}/${target.device}` : server && server.rowCount ? structure.rows[server.firstRow]!.key : undefined;
    if (!rowKey) return;
    setSelectedRow(rowKey);
    setTimeout(() => gridRef.current?.focus(rowKey, target.device !== undefined ? target.field : undefined), 30);
  }, []);

  return { selectedNode, setSelectedNode, selectedRow, setSelectedRow, gridRef, rawRef, selectIssue };
}
