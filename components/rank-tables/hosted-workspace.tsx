"use client";

import { Alert, Button, Input, Space, Tabs, Tooltip, Typography } from "antd";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useCan } from "@/components/auth/current-user";
import type { Issue, Lang } from "@/lib/rank-table";
import type { GridField } from "@/lib/rank-table-workspace/edit";
import type { DeviceRow, PodNode, ServerNode, TableStructure } from "@/lib/rank-table-workspace/structure";
import { HOSTED_FROM_ROWS, type TableSummary } from "@/lib/rank-table-workspace/table-host";
import { selectedPodOf, selectedServerOf } from "@/lib/rank-table-workspace/tree-selection";
import type { SavedRevision } from "./api";
import type { ClusterLinkValue } from "./cluster-link";
import { draftKey, saveDraft } from "./drafts";
import { downloadBlob } from "@/components/primitives/download";
import { useAfterFirstTask } from "@/components/primitives/use-after-first-task";
import { exportFileName } from "./export-actions";
import { createFindingsStore, FindingsContext } from "./findings-store";
import { HostedGrid, type HostedGridHandle } from "./hosted-grid";
import { ProblemsTable, type Problem } from "./problems-table";
import { RevisionsPanel } from "./revisions-panel";
import type { SeverityFilter } from "./severity-counts";
import { StructureTree } from "./structure-tree";
import { useHostedSave } from "./use-hosted-save";
import { useHostedTable } from "./use-hosted-table";
import type { HostedChannel } from "./use-validation";
import { useWorkspaceShortcuts } from "./use-workspace-shortcuts";
import { GRID_HEIGHT } from "./visual-editor";
import type { WorkspaceTab } from "./workspace";

/**
 * A draft is written this long after the last edit: writing a 524,288-rank table takes the worker seconds (bench:
 * `editor`), during which edits wait, so not after every pause in typing.
 */
const DRAFT_DELAY_MS = 5000;

/** The tree's structure from the summary: servers without their dies (they are in the worker), so server nodes are leaves. */
function summaryStructure(summary: TableSummary): TableStructure {
  const byIndex = new Map<number, ServerNode>();
  const pods: PodNode[] = summary.pods.map((pod) => ({
    index: pod.index,
    superPodId: pod.superPodId,
    servers: pod.servers.map((server) => {
      const node: ServerNode = { ...server, source: {} };
      byIndex.set(server.index, node);
      return node;
    }),
  }));
  return { rows: [], servers: [...byIndex.values()], pods, superPodMode: summary.superPodMode };
}

/** How many rows the grid shows for a node, by the summary. */
function rowCountOf(summary: TableSummary, node: string | undefined): number {
  const server = selectedServerOf(node);
  const pod = selectedPodOf(node);
  if (server !== undefined) return summary.pods.flatMap((entry) => entry.servers).find((entry) => entry.index === server)?.rowCount ?? summary.rows;
  if (pod !== undefined) return summary.pods.find((entry) => entry.index === pod)?.servers.reduce((sum, entry) => sum + entry.rowCount, 0) ?? summary.rows;
  return summary.rows;
}

interface Props {
  channel: HostedChannel;
  summary: TableSummary;
  notes: Issue[];
  lang: Lang;
  name: string;
  onNameChange: (name: string) => void;
  link: ClusterLinkValue;
  /** The saved revision the editor started from (undefined: a new table). */
  initial: SavedRevision | undefined;
  /** The page's view: the table or, once saved, its history (the JSON view needs the text here, so it is the table's). */
  tab: WorkspaceTab;
  onTabChange: (tab: WorkspaceTab) => void;
}

/**
 * The editor of a table too large for the main thread (HOSTED_FROM_ROWS rows or more; issue 21 item 3): the worker
 * keeps it, this shows its summary, tree (super pods and servers), the rows in view, and its findings as they
 * stream in. Edits, undo and redo go to the worker; export, save and drafts take Blob parts the worker writes. The
 * JSON text view, the repairs and the diff need the whole table (or its text) here, so they are said to be off.
 */
export function HostedWorkspace({ channel, summary: opened, notes, lang, name, onNameChange, link, initial, tab, onTabChange }: Props) {
  const t = useTranslations("rankTables.editor");
  const tRoot = useTranslations("rankTables");
  const canWrite = useCan("write");
  const { summary, findings, edit, undo, redo, locate, exportBlob } = useHostedTable(channel, opened, notes, lang);
  const [node, setNode] = useState<string | undefined>();
  const [selectedRow, setSelectedRow] = useState<string | undefined>();
  const [severity, setSeverity] = useState<SeverityFilter>("all");
  const [exporting, setExporting] = useState(false);
  const grid = useRef<HostedGridHandle>(null);
  const [store] = useState(createFindingsStore);
  useLayoutEffect(() => store.set(findings.index), [store, findings.index]);
  const structure = useMemo(() => summaryStructure(summary), [summary]);
  const head = findings.head;
  const counts = head?.counts ?? { error: 0, warning: 0, info: 0 };
  // While a report is worked out or its findings still arrive, the status says so rather than the last verdict: a
  // table edited since its last report is not known to be valid (the counts below stay the last report's).
  const verdict = findings.pending ? undefined : head;

  const onCellChange = useCallback(
    (row: DeviceRow, field: GridField, value: string | undefined) =>
      edit(row.rank === undefined ? { type: "set", path: { server: row.server, device: row.device }, field, value } : { type: "setRank", rank: row.rank, field, value }),
    [edit],
  );
  const onRemoveRow = useCallback((row: DeviceRow) => edit(row.rank === undefined ? { type: "removeDevice", server: row.server, device: row.device } : { type: "removeRank", rank: row.rank }), [edit]);
  const onSelectNode = useCallback((key: string | undefined) => setNode(key), []);

  const selectIssue = useCallback(
    async (issue: Problem) => {
      let at = await locate(node, issue.path);
      // Not among the selected node's rows: look among all of them.
      if (at && at.index < 0 && node !== undefined) {
        at = await locate(undefined, issue.path);
        if (at && at.index >= 0) setNode(undefined);
      }
      if (!at || at.index < 0) return;
      if (at.rowKey) setSelectedRow(at.rowKey);
      // After a node change the grid scrolls to the top first: focus on the next frame.
      requestAnimationFrame(() => grid.current?.focus(at.index, at.rowKey, at.field));
    },
    [locate, node],
  );

  const onExport = async () => {
    setExporting(true);
    try {
      downloadBlob(await exportBlob(), exportFileName(name));
    } finally {
      setExporting(false);
    }
  };

  // Unsaved work is kept in the browser (IndexedDB takes the Blob the worker writes), offered back when the editor opens.
  const draftedRevision = useRef(0);
  const onSaved = useCallback(() => {
    draftedRevision.current = summary.revision;
  }, [summary.revision]);
  // A restored revision is saved from the server's text, not the worker's table: the page opens the saved table again
  // (its worker reads it from GET …/text), on its own address (a table created here is still on /rank-tables/new).
  // A full load, not the router's: on the same route the router keeps this workspace (and its worker's table) mounted.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  const onRestored = useCallback((id: number) => window.location.assign(`/rank-tables/${id}?tab=history`), []);
  const { saved, saving, save, restore } = useHostedSave({ initial, name, clusterId: link.clusterId, write: exportBlob, onSaved, onRestored });
  useEffect(() => {
    if (summary.revision === 0 || summary.revision === draftedRevision.current) return;
    let superseded = false;
    const timer = setTimeout(
      () =>
        void exportBlob().then((blob) => {
          if (superseded) return;
          draftedRevision.current = summary.revision;
          return saveDraft({ key: draftKey(saved?.id), name, baseRevision: saved?.revision ?? 0, text: "", blob, cluster: saved ? undefined : link, savedAt: new Date().toISOString() });
        }),
      DRAFT_DELAY_MS,
    );
    return () => {
      superseded = true;
      clearTimeout(timer);
    };
  }, [summary.revision, exportBlob, saved, name, link]);

  useWorkspaceShortcuts({ canSave: canWrite && !saving, save: () => void save(), undo, redo });

  const problems = findings.issues as Problem[];
  // The tree and the grid mount a task after the rest: the Tabs measure their bar as they mount, which laid out the
  // whole workspace with them, 20-50 ms of one task when a 524,288-rank table opened (issue 21).
  const contentShown = useAfterFirstTask();
  return (
    <Space orientation="vertical" style={{ width: "100%" }} size="middle" data-testid="hosted-workspace">
      <Space wrap>
        <Input aria-label={t("name")} placeholder={t("name")} value={name} onChange={(event) => onNameChange(event.target.value)} style={{ width: 280 }} />
        <Tooltip title="Ctrl+Z">
          <Button onClick={undo} disabled={!summary.canUndo || !canWrite}>
            {t("undo")}
          </Button>
        </Tooltip>
        <Tooltip title="Ctrl+Shift+Z">
          <Button onClick={redo} disabled={!summary.canRedo || !canWrite}>
            {t("redo")}
          </Button>
        </Tooltip>
        <Button onClick={() => void onExport()} loading={exporting}>
          {t("downloadJson")}
        </Button>
        {canWrite && (
          <Button type="primary" onClick={() => void save()} loading={saving}>
            {t("save")}
          </Button>
        )}
        {saved && <Typography.Text type="secondary">{t("revisionTag", { revision: saved.revision })}</Typography.Text>}
      </Space>
      <Alert
        role="status"
        aria-label={tRoot("reportLabel")}
        type={verdict === undefined ? "info" : verdict.valid ? (counts.warning ? "warning" : "success") : "error"}
        showIcon
        title={verdict === undefined ? t("checking") : verdict.valid ? tRoot("valid") : tRoot("invalid", { count: counts.error })}
        description={
          head && (
            <span>
              {tRoot("counts", counts)} · {tRoot(head.mode === "super-pod" ? "modeSuperPod" : "modeAiServer")} · {t("stats", head.stats)}
              {findings.pending ? ` · ${t("checking")}` : ""}
            </span>
          )
        }
      />
      <Alert type="info" showIcon title={t("hostedTitle", { rows: summary.rows })} description={t("hostedNotice", { limit: HOSTED_FROM_ROWS })} />
      <Tabs
        activeKey={tab === "history" && saved ? "history" : "visual"}
        onChange={(next) => onTabChange(next as WorkspaceTab)}
        items={[
          {
            key: "visual",
            label: t("visual"),
            children: contentShown && (
              <FindingsContext value={store}>
                <div style={{ display: "grid", gridTemplateColumns: "minmax(220px, 280px) minmax(0, 1fr)", gap: 12 }}>
                  <div style={{ border: "1px solid var(--ant-color-border-secondary, #f0f0f0)", borderRadius: 6 }}>
                    <StructureTree structure={structure} selected={node} onSelect={onSelectNode} height={GRID_HEIGHT} dies={false} />
                  </div>
                  <div>
                    {node && (
                      <Space style={{ marginBottom: 8 }}>
                        <Typography.Text type="secondary">{t("showing", { count: rowCountOf(summary, node), total: summary.rows })}</Typography.Text>
                        <Button size="small" type="link" onClick={() => setNode(undefined)}>
                          {t("showAll")}
                        </Button>
                      </Space>
                    )}
                    <HostedGrid
                      ref={grid}
                      channel={channel}
                      node={node}
                      rowCount={rowCountOf(summary, node)}
                      revision={summary.revision}
                      fields={summary.fields}
                      readOnly={!canWrite}
                      selectedRow={selectedRow}
                      onSelectRow={setSelectedRow}
                      onChange={onCellChange}
                      onRemove={onRemoveRow}
                      height={GRID_HEIGHT}
                    />
                  </div>
                </div>
              </FindingsContext>
            ),
          },
          ...(saved ? [{ key: "history", label: t("history"), children: tab === "history" ? <RevisionsPanel id={saved.id} current={saved.revision} canWrite={canWrite} onRestore={restore} compare={false} /> : null }] : []),
        ]}
      />
      <ProblemsTable issues={problems} counts={head ? { ...counts, all: counts.error + counts.warning + counts.info } : undefined} severity={severity} onSeverityChange={setSeverity} onSelect={(issue) => void selectIssue(issue)} />
    </Space>
  );
}
