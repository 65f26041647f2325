"use client";

import { Alert, Descriptions, Space, Tabs } from "antd";
import { useFormatter, useLocale, useTranslations } from "next-intl";
import { startTransition, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useState } from "react";
import { useCan } from "@/components/auth/current-user";
import type { RankTableDetail } from "@/db/schema/rank-table/validation";
import { parseRankTable, validateRankTable, writeRankTable, type Issue } from "@/lib/rank-table";
import { NO_STRUCTURE } from "@/lib/rank-table-workspace/editor-state";
import type { TableSummary } from "@/lib/rank-table-workspace/table-host";
import { getRevisionText } from "./api";
import type { ClusterLinkValue } from "./cluster-link";
import { ConflictDialog } from "./conflict-dialog";
import { DraftAlert } from "./draft-alert";
import type { Draft } from "./drafts";
import { createFindingsStore, FindingsContext } from "./findings-store";
import { HostedWorkspace } from "./hosted-workspace";
import { ImportPanel } from "./import-panel";
import type { InventoryActions } from "./inventory-import";
import { ProblemsTable, type Problem } from "./problems-table";
import { RawJsonView } from "./raw-json-view";
import { RevisionsPanel } from "./revisions-panel";
import { countBySeverity, type SeverityFilter } from "./severity-counts";
import { useDraftAutosave } from "./use-draft-autosave";
import { useFindingSelection } from "./use-finding-selection";
import { useHardwareFit } from "./use-hardware-fit";
import { useHistory } from "./use-history";
import { useImportRun } from "./use-import-run";
import { useSave } from "./use-save";
import { useValidation } from "./use-validation";
import { useWorkspaceShortcuts } from "./use-workspace-shortcuts";
import { GRID_HEIGHT, VisualEditor } from "./visual-editor";
import { WorkspaceToolbar } from "./workspace-toolbar";

export type WorkspaceTab = "visual" | "json" | "history";

interface Props {
  /** The saved table, or undefined for a new one. */
  initial: RankTableDetail | undefined;
  tab: WorkspaceTab;
  onTabChange: (tab: WorkspaceTab) => void;
  /** Server actions for "build from inventory" (passed in from the route, which owns them). */
  inventoryActions?: InventoryActions | undefined;
}

/**
 * The rank table workspace: import a table (or build one from the inventory), edit it in the visual editor or as
 * JSON with live validation, and save it. Each concern lives in a hook of its own (history, import run, save and
 * conflict, draft autosave, shortcuts, finding selection); this component wires them to the views.
 */
export function RankTableWorkspace({ initial, tab, onTabChange, inventoryActions }: Props) {
  const t = useTranslations("rankTables.editor");
  const tRoot = useTranslations("rankTables");
  const format = useFormatter();
  const lang = useLocale() === "zh-CN" ? "zh" : "en";
  const canWrite = useCan("write");

  const [opened] = useState(() => (initial ? parseRankTable(initial.text).value : undefined));
  const history = useHistory(opened);
  const { state, rawText, edit } = history;
  const [name, setName] = useState(initial?.name ?? "");
  const [comment, setComment] = useState("");
  const [link, setLink] = useState<ClusterLinkValue>({ clusterId: initial?.clusterId ?? null, clusterName: initial?.clusterName ?? null });
  const [severity, setSeverity] = useState<SeverityFilter>("all");
  /** Findings about the imported text itself (RT001 comments), which the parsed table no longer shows; kept until saved. */
  const [textNotes, setTextNotes] = useState<Issue[]>([]);
  const [findings] = useState(createFindingsStore);
  /** A table too large for this thread, kept by the validation worker (opened from a file). */
  const [hosted, setHosted] = useState<{ summary: TableSummary; notes: Issue[] } | undefined>();

  const table = state?.history.present;
  const structure = state?.structure ?? NO_STRUCTURE;
  // The tree follows in a background render: the grid (the first screen, the edited cell) does not wait for it.
  const treeStructure = useDeferredValue(structure);
  const validation = useValidation(table, state?.lastEdit, lang, structure.rows.length);
  const canonical = useMemo(() => (tab === "json" && table !== undefined ? writeRankTable(table) : undefined), [tab, table]);
  const jsonText = rawText ?? canonical ?? "";
  const rawReport = useMemo(() => (tab === "json" && jsonText ? validateRankTable(jsonText, { lang }) : undefined), [tab, jsonText, lang]);
  const report = tab === "json" ? (rawReport ?? validation.report) : validation.report;
  const issues = useMemo(() => (tab === "json" ? (report?.issues ?? []) : [...textNotes, ...(report?.issues ?? [])]), [report, textNotes, tab]);
  const fit = useHardwareFit(report, link, lang);
  // CL001 heads the problems: it is about the whole table, against the cluster it is linked to.
  const problems = useMemo<Problem[]>(() => (fit ? [{ code: fit.code, severity: fit.severity, path: "", message: fit.message }, ...issues] : issues), [fit, issues]);
  const issueIndex = validation.index;
  useLayoutEffect(() => findings.set(issueIndex), [findings, issueIndex]);
  const counts = countBySeverity(issues);

  const onSaved = useCallback(() => {
    setComment("");
    setTextNotes([]);
  }, []);
  const { saved, cleanTable, saving, save, conflictDialog, reopened } = useSave({ initial, opened, table, name, comment, clusterId: link.clusterId, show: history.show, onSaved });
  const dirty = table !== undefined && (table !== cleanTable || saved === undefined);
  const drafts = useDraftAutosave({ saved, table, dirty, name, link, write: validation.write });
  useWorkspaceShortcuts({ canSave: canWrite && dirty, save, undo: history.undo, redo: history.redo });
  const { selectedNode, setSelectedNode, selectedRow, setSelectedRow, gridRef, rawRef, selectIssue } = useFindingSelection(tab, structure, onTabChange);

  const imports = useImportRun({
    validation,
    onNotes: setTextNotes,
    onImported: (imported, text, fileName, fromServer) => {
      if (fileName && !name) setName(fileName.replace(/\.jsonc?$/i, ""));
      if (imported === undefined) {
        // Not JSON: show it in the JSON view with the error at its line and column.
        history.start(null, text);
        onTabChange("json");
        return;
      }
      validation.adopt(imported);
      setHosted(undefined);
      history.start(imported);
      // The saved revision read from GET …/text, small enough for this thread after all: no unsaved work.
      if (fromServer) reopened(imported);
    },
    onHosted: ({ summary, notes }, fileName) => {
      if (fileName && !name) setName(fileName.replace(/\.jsonc?$/i, ""));
      // A background render: mounting the hosted editor (its tree lists every server) is cut into short tasks.
      startTransition(() => setHosted({ summary, notes }));
    },
  });

  // A saved revision the page has no text for (largeText: one the worker keeps, HOSTED_FROM_ROWS dies or more, or too
  // long to be one string) is read into the worker from GET …/text as it arrives and opens as a file that large does.
  const largeText = initial?.largeText && { id: initial.id, revision: initial.revision, name: initial.name, bytes: initial.largeText.bytes };
  const { runImport } = imports;
  useEffect(() => {
    if (largeText) void runImport({ url: `/api/v1/rank-tables/${largeText.id}/text?revision=${largeText.revision}`, bytes: largeText.bytes }, largeText.name);
    // Once, for the revision the page was opened on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const restoreDraft = (draft: Draft) => {
    if (draft.blob) {
      // A large table's draft: opened as a file is, into the worker.
      void imports.runImport(new File([draft.blob], `${draft.name || "draft"}.json`), undefined);
      setName(draft.name || name);
    } else if (state) {
      const value = parseRankTable(draft.text).value;
      if (value !== undefined) edit({ type: "replace", table: value });
      setName(draft.name || name);
    } else {
      void imports.runImport(draft.text, undefined);
      setName(draft.name);
    }
    if (draft.cluster) setLink(draft.cluster);
    drafts.close();
  };
  const draftAlert = drafts.offer && <DraftAlert draft={drafts.offer} onRestore={() => restoreDraft(drafts.offer!)} onDiscard={drafts.discard} />;

  if (hosted) {
    return <HostedWorkspace tab={tab} onTabChange={onTabChange} channel={validation.hosted} summary={hosted.summary} notes={hosted.notes} lang={lang} name={name} onNameChange={setName} link={link} initial={saved && { id: saved.id, revision: saved.revision }} />;
  }

  if (!state) {
    return (
      <Space orientation="vertical" style={{ width: "100%" }} size="middle">
        {draftAlert}
        <ImportPanel
          onImport={(text, fileName) => void imports.runImport(text, fileName)}
          onImportFile={(file) => void imports.runImport(file, file.name)}
          progress={imports.progress}
          onCancel={imports.cancel}
          inventoryActions={inventoryActions && { ...inventoryActions, onBuilt: setLink }}
        />
      </Space>
    );
  }

  return (
    <Space orientation="vertical" style={{ width: "100%" }} size="middle">
      {draftAlert}
      <WorkspaceToolbar
        name={name}
        onNameChange={setName}
        saved={saved}
        dirty={dirty}
        link={link}
        onLinkChange={setLink}
        canUndo={state.history.past.length > 0}
        canRedo={state.history.future.length > 0}
        onUndo={history.undo}
        onRedo={history.redo}
        table={table}
        errorCount={counts.error}
        onRepaired={(repaired) => edit({ type: "replace", table: repaired })}
        comment={comment}
        onCommentChange={setComment}
        saving={saving}
        onSave={() => void save()}
      />
      {report && (
        <Alert
          role="status"
          aria-label={tRoot("reportLabel")}
          type={report.valid ? (counts.warning ? "warning" : "success") : "error"}
          showIcon
          title={report.valid ? tRoot("valid") : tRoot("invalid", { count: counts.error })}
          description={
            <span>
              {tRoot("counts", counts)} · {tRoot(report.mode === "super-pod" ? "modeSuperPod" : "modeAiServer")} · {t("stats", report.stats)}
              {validation.pending ? ` · ${t("checking")}` : ""}
            </span>
          }
        />
      )}
      {fit && <Alert role="alert" aria-label={t("hardwareFitLabel")} type={fit.severity === "error" ? "error" : "warning"} showIcon title={`${fit.code} · ${t("hardwareFit")}`} description={fit.message} />}
      <Tabs
        activeKey={tab}
        onChange={(next) => onTabChange(next as WorkspaceTab)}
        items={[
          {
            key: "visual",
            label: t("visual"),
            children: (
              <FindingsContext value={findings}>
                <VisualEditor
                  table={table}
                  structure={structure}
                  treeStructure={treeStructure}
                  issues={issueIndex}
                  selectedNode={selectedNode}
                  onSelectNode={setSelectedNode}
                  selectedRow={selectedRow}
                  onSelectRow={setSelectedRow}
                  gridRef={gridRef}
                  readOnly={!canWrite}
                  onEdit={edit}
                />
              </FindingsContext>
            ),
          },
          {
            key: "json",
            label: t("json"),
            children: tab === "json" ? <RawJsonView ref={rawRef} text={jsonText} issues={issues} readOnly={!canWrite} label={t("jsonLabel")} height={GRID_HEIGHT} onChange={history.type} /> : null,
          },
          ...(saved ? [{ key: "history", label: t("history"), children: tab === "history" ? <RevisionsPanel id={saved.id} current={saved.revision} canWrite={canWrite} onRestore={(revision) => getRevisionText(saved.id, revision).then((text) => void save({ restoreOf: revision, text }))} /> : null }] : []),
        ]}
      />
      <ProblemsTable issues={problems} severity={severity} onSeverityChange={setSeverity} onSelect={selectIssue} />
      {saved && (
        <Descriptions size="small" column={3}>
          <Descriptions.Item label={t("lastSaved")}>{format.dateTime(new Date(saved.updatedAt), { dateStyle: "medium", timeStyle: "short" })}</Descriptions.Item>
          <Descriptions.Item label={t("by")}>{saved.updatedBy ?? "—"}</Descriptions.Item>
          <Descriptions.Item label={t("cluster")}>{link.clusterName ?? "—"}</Descriptions.Item>
        </Descriptions>
      )}
      {conflictDialog && <ConflictDialog {...conflictDialog} />}
    </Space>
  );
}
