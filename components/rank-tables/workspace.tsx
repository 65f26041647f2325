"use client";

import { CopyOutlined, DownloadOutlined, RedoOutlined, SaveOutlined, ToolOutlined, UndoOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Descriptions, Dropdown, Input, InputNumber, Select, Space, Tabs, Tag, Tooltip, Typography } from "antd";
import { useRouter } from "next/navigation";
import { useFormatter, useLocale, useTranslations } from "next-intl";
import { useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useCan } from "@/components/auth/current-user";
import { isTyping } from "@/components/primitives/is-typing";
import type { RankTableDetail } from "@/db/schema/rank-table/validation";
import { assignPorts, pairBackups, parseRankTable, recomputeServerCount, renumberRanks, validateRankTable, writeRankTable, type Issue, type JsonValue, type RepairResult } from "@/lib/rank-table";
import { applyEdit, podOfServer, pushHistory, redo, startHistory, undo, type DeviceField, type Edit, type History } from "@/lib/rank-table-workspace/edit";
import { issueTarget, tableStructure, type DeviceRow, type TableStructure } from "@/lib/rank-table-workspace/structure";
import { conflictCurrent, createRankTable, rankTableKey, rankTablesKey, saveRankTable } from "./api";
import { ClusterLink, type ClusterLinkValue } from "./cluster-link";
import { ConflictDialog } from "./conflict-dialog";
import { DeviceGrid, type DeviceGridHandle } from "./device-grid";
import { clearDraft, draftKey, loadDraft, saveDraft, type Draft } from "./drafts";
import { configMapYaml, downloadText, exportFileName } from "./export-actions";
import { createFindingsStore, FindingsContext } from "./findings-store";
import { ImportPanel, readFileText, type ImportProgress } from "./import-panel";
import type { InventoryActions } from "./inventory-import";
import { MiniTopology } from "./mini-topology";
import { ProblemsTable } from "./problems-table";
import { RawJsonView, type RawJsonHandle } from "./raw-json-view";
import { RevisionsPanel } from "./revisions-panel";
import { StructureTree as StructureTreeLazy } from "./structure-tree";
import { countBySeverity, type SeverityFilter } from "./severity-counts";
import { afterPaint, ImportCancelled, useValidation } from "./use-validation";
import { TrackJobButton } from "@/components/jobs/track-job-button";

export type WorkspaceTab = "visual" | "json" | "history";

interface Props {
  /** The saved table, or undefined for a new one. */
  initial: RankTableDetail | undefined;
  tab: WorkspaceTab;
  onTabChange: (tab: WorkspaceTab) => void;
  /** Server actions for "build from inventory" (passed in from the route, which owns them). */
  inventoryActions?: InventoryActions | undefined;
}

interface Loaded {
  history: History;
  lastEdit: { edit: Edit; from: JsonValue } | undefined;
  /** Grid rows and tree of `history.present`, derived from the previous ones: what an edit did not touch keeps its objects. */
  structure: TableStructure;
}

const loaded = (previous: Loaded | undefined, history: History, lastEdit?: Loaded["lastEdit"]): Loaded => ({ history, lastEdit, structure: tableStructure(history.present, previous?.structure) });

const NO_STRUCTURE = tableStructure(undefined);

/** A save of the editor's table, or of a restored revision's text (`restoreOf`). */
interface SaveOptions {
  restoreOf?: number | undefined;
  text?: string | undefined;
}

/** A running import: cancelling stops its file reading and its worker, and drops whatever they still deliver. */
interface ImportRun {
  cancelled: boolean;
  abort?: () => void;
}

const GRID_HEIGHT = 520;

/** Marks for rows and tree nodes with findings (colour plus the ✖/▲ signs the components write). */
const WORKSPACE_STYLES = `
.rt-row-selected > .ant-table-cell { background: var(--ant-color-primary-bg, #e6f4ff) !important; }
.ant-table-row:has(.rt-row-mark-error) > .ant-table-cell:first-child { box-shadow: inset 3px 0 0 var(--ant-color-error, #ff4d4f); }
.ant-table-row:has(.rt-row-mark-warning) > .ant-table-cell:first-child { box-shadow: inset 3px 0 0 var(--ant-color-warning, #faad14); }
.rt-mark-error, .rt-mark-error .ant-tree-title { color: var(--ant-color-error-text, #cf1322); }
.rt-mark-warning, .rt-mark-warning .ant-tree-title { color: var(--ant-color-warning-text, #d48806); }
`;

export function RankTableWorkspace({ initial, tab, onTabChange, inventoryActions }: Props) {
  const t = useTranslations("rankTables.editor");
  const tRoot = useTranslations("rankTables");
  const tImport = useTranslations("rankTables.import");
  const tProgress = useTranslations("rankTables.importProgress");
  const format = useFormatter();
  const locale = useLocale();
  const lang = locale === "zh-CN" ? "zh" : "en";
  const { message, modal } = App.useApp();
  const router = useRouter();
  const queryClient = useQueryClient();
  const canWrite = useCan("write");

  const [saved, setSaved] = useState<RankTableDetail | undefined>(initial);
  const savedTable = useMemo(() => (saved ? parseRankTable(saved.text).value : undefined), [saved]);
  const [name, setName] = useState(initial?.name ?? "");
  const [comment, setComment] = useState("");
  const [link, setLink] = useState<ClusterLinkValue>({ clusterId: initial?.clusterId ?? null, clusterName: initial?.clusterName ?? null });
  const [state, setState] = useState<Loaded | undefined>(() => (savedTable === undefined ? undefined : loaded(undefined, startHistory(savedTable))));
  /** The table as it was last saved or loaded, to know whether there is unsaved work. */
  const [cleanTable, setCleanTable] = useState<JsonValue | undefined>(savedTable);
  /** Text in the JSON view that does not parse (yet); the visual editor keeps the last table that did. */
  const [rawText, setRawText] = useState<string | undefined>();
  const [selectedNode, setSelectedNode] = useState<string | undefined>();
  const [selectedRow, setSelectedRow] = useState<string | undefined>();
  const [severity, setSeverity] = useState<SeverityFilter>("all");
  /** A save refused because someone saved in between: their revision, and what this save tried to store (a restore's table, not the editor's). */
  const [conflict, setConflict] = useState<{ theirs: RankTableDetail; mine: JsonValue; attempt: SaveOptions } | undefined>();
  const [draftOffer, setDraftOffer] = useState<Draft | undefined>();
  const [saving, setSaving] = useState(false);
  /** Findings about the imported text itself (RT001 comments), which the parsed table no longer shows; kept until saved. */
  const [textNotes, setTextNotes] = useState<Issue[]>([]);
  const [importing, setImporting] = useState<ImportProgress | undefined>();
  const importRun = useRef<ImportRun | undefined>(undefined);
  const [findings] = useState(createFindingsStore);
  const gridRef = useRef<DeviceGridHandle>(null);
  const rawRef = useRef<RawJsonHandle>(null);
  const key = draftKey(saved?.id);

  const table = state?.history.present;
  const structure = state?.structure ?? NO_STRUCTURE;
  // The tree follows in a background render: the grid (the first screen, the edited cell) does not wait for it.
  const treeStructure = useDeferredValue(structure);
  const validation = useValidation(table, state?.lastEdit, lang, structure.rows.length);
  const { importText, cancelImport: stopImportWork, adopt, write } = validation;
  const canonical = useMemo(() => (tab === "json" && table !== undefined ? writeRankTable(table) : undefined), [tab, table]);
  const jsonText = rawText ?? canonical ?? "";
  const rawReport = useMemo(() => (tab === "json" && jsonText ? validateRankTable(jsonText, { lang }) : undefined), [tab, jsonText, lang]);
  const report = tab === "json" ? (rawReport ?? validation.report) : validation.report;
  const issues = useMemo(() => (tab === "json" ? (report?.issues ?? []) : [...textNotes, ...(report?.issues ?? [])]), [report, textNotes, tab]);
  const issueIndex = validation.index;
  useLayoutEffect(() => findings.set(issueIndex), [findings, issueIndex]);
  const counts = countBySeverity(issues);
  const dirty = table !== undefined && (table !== cleanTable || saved === undefined);

  // Offer back unsaved work from an earlier visit.
  useEffect(() => {
    let cancelled = false;
    void loadDraft(key).then((draft) => {
      if (!cancelled && draft && draft.text !== saved?.text) setDraftOffer(draft);
    });
    return () => {
      cancelled = true;
    };
    // Only when the table being edited changes identity.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  // Keep unsaved work in the browser, a moment after the last edit.
  useEffect(() => {
    if (!dirty || table === undefined) return;
    let superseded = false;
    // The text is written by the validation worker for large tables, so a draft never blocks typing.
    const timer = setTimeout(
      () =>
        void write(table).then((text) => {
          if (!superseded) return saveDraft({ key, name, baseRevision: saved?.revision ?? 0, text, cluster: saved ? undefined : link, savedAt: new Date().toISOString() });
        }),
      700,
    );
    return () => {
      superseded = true;
      clearTimeout(timer);
    };
  }, [dirty, table, key, name, link, saved, write]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const edit = useCallback((change: Edit) => {
    setState((current) => {
      if (!current) return current;
      const next = applyEdit(current.history.present, change);
      if (next === current.history.present) return current;
      return loaded(current, pushHistory(current.history, next), { edit: change, from: current.history.present });
    });
    setRawText(undefined);
  }, []);

  const commitImport = (table: JsonValue | undefined, text: string, fileName: string | undefined) => {
    if (fileName && !name) setName(fileName.replace(/\.jsonc?$/i, ""));
    if (table === undefined) {
      // Not JSON: show it in the JSON view with the error at its line and column.
      setState(loaded(undefined, startHistory(null)));
      setRawText(text);
      onTabChange("json");
      return;
    }
    adopt(table);
    setState(loaded(undefined, startHistory(table)));
    setRawText(undefined);
  };

  const cancelImport = useCallback(() => {
    const run = importRun.current;
    if (!run) return;
    run.cancelled = true;
    run.abort?.();
    importRun.current = undefined;
    stopImportWork();
    setImporting(undefined);
  }, [stopImportWork]);

  /** Reads (a file), parses and validates (in the worker) and shows a table, with its stages on screen and a Cancel. */
  const runImport = async (source: string | File, fileName: string | undefined) => {
    cancelImport();
    const run: ImportRun = { cancelled: false };
    importRun.current = run;
    const progress = (stage: ImportProgress["stage"], percent?: number) => !run.cancelled && setImporting({ stage, name: fileName, percent });
    try {
      let text: string;
      if (typeof source === "string") text = source;
      else {
        progress("reading", 0);
        const reading = readFileText(source, (percent) => progress("reading", percent));
        run.abort = reading.abort;
        text = await reading.text;
      }
      if (run.cancelled) return;
      const imported = await importText(text, (stage) => progress(stage), setTextNotes);
      if (run.cancelled) return;
      // The worker validates while the table is drawn (both stages show as running); the report follows.
      progress("rendering");
      await afterPaint();
      if (run.cancelled) return;
      commitImport(imported, text, fileName);
    } catch (error) {
      if (run.cancelled || error instanceof ImportCancelled) return;
      message.error(source instanceof File ? tImport("readFailed", { name: source.name }) : (error as Error).message);
    } finally {
      if (importRun.current === run) {
        importRun.current = undefined;
        setImporting(undefined);
      }
    }
  };

  const onUndo = useCallback(() => {
    setState((current) => (current && current.history.past.length ? loaded(current, undo(current.history)) : current));
    setRawText(undefined);
  }, []);
  const onRedo = useCallback(() => {
    setState((current) => (current && current.history.future.length ? loaded(current, redo(current.history)) : current));
    setRawText(undefined);
  }, []);

  const save = useCallback(
    async (options: SaveOptions & { overwrite?: RankTableDetail } = {}) => {
      if (table === undefined && options.text === undefined) return;
      if (!name.trim()) {
        message.error(t("nameRequired"));
        return;
      }
      const text = options.text ?? writeRankTable(table!);
      const body = { name: name.trim(), text, comment: options.restoreOf ? t("restoredComment", { revision: options.restoreOf }) : comment };
      setSaving(true);
      try {
        const result = saved ? await saveRankTable(saved.id, options.overwrite?.revision ?? saved.revision, body) : await createRankTable({ ...body, clusterId: link.clusterId });
        await clearDraft(key);
        setSaved(result);
        const value = parseRankTable(result.text).value;
        setState((current) => (current ? loaded(current, pushHistory(current.history, value ?? null)) : current));
        setCleanTable(value);
        setComment("");
        setTextNotes([]);
        setConflict(undefined);
        void queryClient.invalidateQueries({ queryKey: rankTablesKey });
        queryClient.setQueryData(rankTableKey(result.id), result);
        message.success(t("saved", { revision: result.revision }));
        if (!saved) router.replace(`/rank-tables/${result.id}`);
      } catch (error) {
        const current = conflictCurrent(error);
        const mine = options.text === undefined ? table : parseRankTable(options.text).value;
        if (current && mine !== undefined) setConflict({ theirs: current, mine, attempt: { restoreOf: options.restoreOf, text: options.text } });
        else message.error(t("saveFailed", { reason: (error as Error).message }));
      } finally {
        setSaving(false);
      }
    },
    [table, name, comment, link.clusterId, saved, key, message, t, queryClient, router],
  );

  // Ctrl+S saves; Ctrl+Z / Ctrl+Shift+Z undo and redo outside text fields.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey)) return;
      const key = event.key.toLowerCase();
      if (key === "s") {
        event.preventDefault();
        if (canWrite && dirty) void save();
        return;
      }
      if (isTyping(event.target)) return;
      if (key === "z" && !event.shiftKey) {
        event.preventDefault();
        onUndo();
      } else if ((key === "z" && event.shiftKey) || key === "y") {
        event.preventDefault();
        onRedo();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [canWrite, dirty, save, onUndo, onRedo]);

  const repair = (label: string, run: (value: JsonValue) => RepairResult) => {
    if (table === undefined) return;
    try {
      const result = run(table);
      edit({ type: "replace", table: result.table });
      message.success(t("repaired", { repair: label, count: result.changes.length }));
    } catch (error) {
      message.error((error as Error).message);
    }
  };

  const askBasePort = () => {
    let port = 16666;
    modal.confirm({
      title: t("assignPorts"),
      content: <InputNumber aria-label={t("basePort")} defaultValue={port} min={1024} max={65535} onChange={(value) => (port = value ?? port)} />,
      onOk: () => repair(t("assignPorts"), (value) => assignPorts(value, { basePort: port })),
    });
  };

  const confirmExport = (run: () => void) => {
    if (counts.error === 0) return run();
    modal.confirm({
      title: tRoot("exportWithErrorsTitle"),
      content: tRoot("exportWithErrors", { count: counts.error }),
      okText: tRoot("exportAnyway"),
      okButtonProps: { danger: true },
      onOk: run,
    });
  };

  const exportConfigMap = () => {
    let job = name || "job";
    let namespace = "";
    modal.confirm({
      title: t("configMapTitle"),
      content: (
        <Space orientation="vertical" style={{ width: "100%" }}>
          <Input prefix={<span style={{ opacity: 0.6 }}>{t("job")}</span>} defaultValue={job} onChange={(event) => (job = event.target.value)} />
          <Input prefix={<span style={{ opacity: 0.6 }}>{t("namespace")}</span>} placeholder="default" onChange={(event) => (namespace = event.target.value)} />
        </Space>
      ),
      onOk: () => confirmExport(() => {
        const yaml = configMapYaml(writeRankTable(table!), job, namespace || undefined);
        downloadText(yaml, `rings-config-${job}.yaml`.replace(/[^\w.-]+/g, "-"), "application/yaml");
      }),
    });
  };

  // What selecting a finding needs, as of the last render: read when a finding is clicked, so the handler (and the
  // memoised problems panel) stays the same across edits.
  const selectionContext = useRef({ tab, structure, onTabChange });
  useLayoutEffect(() => {
    selectionContext.current = { tab, structure, onTabChange };
  });
  const selectIssue = useCallback((issue: Issue) => {
    const { tab, structure, onTabChange } = selectionContext.current;
    if (tab === "json") {
      if (issue.line) rawRef.current?.select(issue.line, issue.column ?? 1);
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
    setSelectedNode(server ? `server:${server.index}` : undefined);
    const rowKey = target.device !== undefined ? `${target.server}/${target.device}` : server && server.rowCount ? structure.rows[server.firstRow]!.key : undefined;
    if (!rowKey) return;
    setSelectedRow(rowKey);
    setTimeout(() => gridRef.current?.focus(rowKey, target.device !== undefined ? target.field : undefined), 30);
  }, []);

  // Rows shown in the grid: everything, or the selected super pod's or server's dies.
  const visibleRows = useMemo(() => {
    if (!selectedNode) return structure.rows;
    const [kind, value] = selectedNode.split(":") as [string, string];
    if (kind === "server" || kind === "die") {
      const serverIndex = Number(kind === "die" ? value.split("/")[0] : value);
      const server = structure.servers.find((node) => node.index === serverIndex);
      return server ? structure.rows.slice(server.firstRow, server.firstRow + server.rowCount) : structure.rows;
    }
    const pod = structure.pods.find((node) => node.index === Number(value));
    if (!pod) return structure.rows;
    return pod.servers.flatMap((server) => structure.rows.slice(server.firstRow, server.firstRow + server.rowCount));
  }, [selectedNode, structure]);

  const selectedServer = selectedNode?.startsWith("server:") ? Number(selectedNode.slice(7)) : selectedNode?.startsWith("die:") ? Number(selectedNode.slice(4).split("/")[0]) : undefined;
  const selectedPod = selectedNode?.startsWith("pod:") ? Number(selectedNode.slice(4)) : undefined;
  const serverPod = selectedServer === undefined || table === undefined || typeof table !== "object" || table === null || Array.isArray(table) ? -1 : podOfServer(table, structure.servers.find((node) => node.index === selectedServer)?.serverId);

  const onCellChange = useCallback((row: DeviceRow, field: DeviceField, value: string | undefined) => edit({ type: "set", path: { server: row.server, device: row.device }, field, value }), [edit]);
  const onRemoveRow = useCallback((row: DeviceRow) => edit({ type: "removeDevice", server: row.server, device: row.device }), [edit]);

  if (!state) {
    return (
      <Space orientation="vertical" style={{ width: "100%" }} size="middle">
        {draftOffer && <DraftAlert draft={draftOffer} onRestore={() => { void runImport(draftOffer.text, undefined); setName(draftOffer.name); if (draftOffer.cluster) setLink(draftOffer.cluster); setDraftOffer(undefined); }} onDiscard={() => { void clearDraft(key); setDraftOffer(undefined); }} />}
        <ImportPanel
          onImport={(text, fileName) => void runImport(text, fileName)}
          onImportFile={(file) => void runImport(file, file.name)}
          progress={importing}
          onCancel={() => {
            cancelImport();
            message.info(tProgress("cancelled"));
          }}
          inventoryActions={inventoryActions && { ...inventoryActions, onBuilt: setLink }}
        />
      </Space>
    );
  }

  const reportSummary = report && (
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
  );

  return (
    <Space orientation="vertical" style={{ width: "100%" }} size="middle">
      <style>{WORKSPACE_STYLES}</style>
      {draftOffer && (
        <DraftAlert
          draft={draftOffer}
          onRestore={() => {
            const value = parseRankTable(draftOffer.text).value;
            if (value !== undefined) edit({ type: "replace", table: value });
            setName(draftOffer.name || name);
            if (draftOffer.cluster) setLink(draftOffer.cluster);
            setDraftOffer(undefined);
          }}
          onDiscard={() => {
            void clearDraft(key);
            setDraftOffer(undefined);
          }}
        />
      )}
      <Space wrap align="center">
        <Input aria-label={t("name")} placeholder={t("name")} value={name} onChange={(event) => setName(event.target.value)} style={{ width: 260 }} readOnly={!canWrite} />
        {saved && <Tag>{t("revisionTag", { revision: saved.revision })}</Tag>}
        {dirty && <Tag color="gold">{t("unsaved")}</Tag>}
        <ClusterLink tableId={saved?.id} value={link} onChange={setLink} readOnly={!canWrite} />
        <Tooltip title="Ctrl+Z">
          <Button aria-label={t("undo")} icon={<UndoOutlined />} disabled={!state.history.past.length} onClick={onUndo}>
            {t("undo")}
          </Button>
        </Tooltip>
        <Tooltip title="Ctrl+Shift+Z">
          <Button aria-label={t("redo")} icon={<RedoOutlined />} disabled={!state.history.future.length} onClick={onRedo}>
            {t("redo")}
          </Button>
        </Tooltip>
        {canWrite && (
          <Dropdown
            trigger={["click"]}
            menu={{
              items: [
                { key: "ranks", label: t("renumberRanks"), onClick: () => repair(t("renumberRanks"), renumberRanks) },
                { key: "backups", label: t("pairBackups"), onClick: () => repair(t("pairBackups"), pairBackups) },
                { key: "ports", label: t("assignPorts"), onClick: askBasePort },
                { key: "count", label: t("recomputeServerCount"), onClick: () => repair(t("recomputeServerCount"), recomputeServerCount) },
              ],
            }}
          >
            <Button icon={<ToolOutlined />}>{t("repairs")}</Button>
          </Dropdown>
        )}
        <Dropdown
            trigger={["click"]}
          menu={{
            items: [
              { key: "json", label: t("downloadJson"), onClick: () => confirmExport(() => downloadText(writeRankTable(table!), exportFileName(name), "application/json")) },
              { key: "configmap", label: t("downloadConfigMap"), onClick: exportConfigMap },
              {
                key: "copy",
                label: t("copyJson"),
                icon: <CopyOutlined />,
                onClick: () => confirmExport(() => void navigator.clipboard.writeText(writeRankTable(table!)).then(() => message.success(t("copied")), () => message.error(t("copyFailed")))),
              },
            ],
          }}
        >
          <Button icon={<DownloadOutlined />} disabled={table === null}>
            {t("export")}
          </Button>
        </Dropdown>
        {canWrite && saved && <TrackJobButton table={saved} />}
        {canWrite && (
          <>
            <Input aria-label={t("comment")} placeholder={t("comment")} value={comment} onChange={(event) => setComment(event.target.value)} style={{ width: 220 }} />
            <Button type="primary" icon={<SaveOutlined />} loading={saving} disabled={!dirty || table === null} onClick={() => void save()}>
              {t("save")}
            </Button>
          </>
        )}
      </Space>
      {reportSummary}
      <Tabs
        activeKey={tab}
        onChange={(next) => onTabChange(next as WorkspaceTab)}
        items={[
          {
            key: "visual",
            label: t("visual"),
            children: (
              <FindingsContext value={findings}>
              <div style={{ display: "grid", gridTemplateColumns: "minmax(220px, 280px) minmax(0, 1fr)", gap: 12 }}>
                <Space orientation="vertical" style={{ width: "100%" }}>
                  {canWrite && (
                    <Space wrap size={4}>
                      <Button size="small" onClick={() => edit({ type: "addServer", pod: selectedPod ?? (serverPod >= 0 ? serverPod : undefined) })}>
                        {t("addServer")}
                      </Button>
                      <Button size="small" disabled={selectedServer === undefined} onClick={() => selectedServer !== undefined && edit({ type: "addDevice", server: selectedServer })}>
                        {t("addDie")}
                      </Button>
                      <Button
                        size="small"
                        danger
                        disabled={selectedServer === undefined}
                        onClick={() =>
                          selectedServer !== undefined &&
                          modal.confirm({
                            title: t("removeServerConfirm", { server: structure.servers.find((node) => node.index === selectedServer)?.serverId ?? "" }),
                            content: t("undoHint"),
                            okButtonProps: { danger: true },
                            onOk: () => {
                              edit({ type: "removeServer", server: selectedServer });
                              setSelectedNode(undefined);
                            },
                          })
                        }
                      >
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
                            edit({ type: "moveServer", server: selectedServer, pod });
                            setSelectedNode(`pod:${pod}`);
                          }}
                        />
                      )}
                    </Space>
                  )}
                  <div style={{ border: "1px solid var(--ant-color-border-secondary, #f0f0f0)", borderRadius: 6 }}>
                    <StructureTreeLazy structure={treeStructure} selected={selectedNode} onSelect={setSelectedNode} height={selectedServer !== undefined || selectedPod !== undefined ? 300 : GRID_HEIGHT} />
                  </div>
                  <MiniTopology structure={structure} issues={issueIndex} server={selectedServer} pod={selectedPod} />
                </Space>
                <div>
                  {selectedNode && (
                    <Space style={{ marginBottom: 8 }}>
                      <Typography.Text type="secondary">{t("showing", { count: visibleRows.length, total: structure.rows.length })}</Typography.Text>
                      <Button size="small" type="link" onClick={() => setSelectedNode(undefined)}>
                        {t("showAll")}
                      </Button>
                    </Space>
                  )}
                  {selectedServer !== undefined && <ServerFields table={table} server={selectedServer} issues={issueIndex.byPath} readOnly={!canWrite} onChange={(field, value) => edit({ type: "set", path: { server: selectedServer }, field, value })} />}
                  <DeviceGrid ref={gridRef} rows={visibleRows} readOnly={!canWrite} selectedRow={selectedRow} onSelectRow={setSelectedRow} onChange={onCellChange} onRemove={onRemoveRow} height={GRID_HEIGHT} />
                </div>
              </div>
              </FindingsContext>
            ),
          },
          {
            key: "json",
            label: t("json"),
            children:
              tab === "json" ? (
                <RawJsonView
                  ref={rawRef}
                  text={jsonText}
                  issues={issues}
                  readOnly={!canWrite}
                  label={t("jsonLabel")}
                  height={GRID_HEIGHT}
                  onChange={(text) => {
                    setRawText(text);
                    const value = parseRankTable(text).value;
                    if (value !== undefined) {
                      setState((current) => (current ? loaded(current, pushHistory(current.history, value)) : current));
                    }
                  }}
                />
              ) : null,
          },
          ...(saved ? [{ key: "history", label: t("history"), children: tab === "history" ? <RevisionsPanel id={saved.id} current={saved.revision} canWrite={canWrite} onRestore={(revision, text) => void save({ restoreOf: revision, text })} /> : null }] : []),
        ]}
      />
      <ProblemsTable issues={issues} severity={severity} onSeverityChange={setSeverity} onSelect={selectIssue} />
      {saved && (
        <Descriptions size="small" column={3}>
          <Descriptions.Item label={t("lastSaved")}>{format.dateTime(new Date(saved.updatedAt), { dateStyle: "medium", timeStyle: "short" })}</Descriptions.Item>
          <Descriptions.Item label={t("by")}>{saved.updatedBy ?? "—"}</Descriptions.Item>
          <Descriptions.Item label={t("cluster")}>{link.clusterName ?? "—"}</Descriptions.Item>
        </Descriptions>
      )}
      {conflict && (
        <ConflictDialog
          theirs={conflict.theirs}
          base={cleanTable}
          mine={conflict.mine}
          restoring={conflict.attempt.restoreOf}
          onCancel={() => setConflict(undefined)}
          onReload={() => {
            const value = parseRankTable(conflict.theirs.text).value ?? null;
            setSaved(conflict.theirs);
            setCleanTable(value);
            setState((current) => (current ? loaded(current, pushHistory(current.history, value)) : current));
            setConflict(undefined);
          }}
          onMerge={(merged, conflicts) => {
            const theirValue = parseRankTable(conflict.theirs.text).value ?? null;
            setSaved(conflict.theirs);
            setCleanTable(theirValue);
            setState((current) => (current ? loaded(current, pushHistory(current.history, merged)) : current));
            setConflict(undefined);
            message.info(t("merged", { conflicts }));
          }}
          onOverwrite={() => void save({ ...conflict.attempt, overwrite: conflict.theirs })}
        />
      )}
    </Space>
  );
}

function DraftAlert({ draft, onRestore, onDiscard }: { draft: Draft; onRestore: () => void; onDiscard: () => void }) {
  const t = useTranslations("rankTables.editor");
  const format = useFormatter();
  return (
    <Alert
      type="info"
      showIcon
      title={t("draftFound", { time: format.dateTime(new Date(draft.savedAt), { dateStyle: "medium", timeStyle: "short" }), revision: draft.baseRevision })}
      action={
        <Space>
          <Button size="small" type="primary" onClick={onRestore}>
            {t("draftRestore")}
          </Button>
          <Button size="small" onClick={onDiscard}>
            {t("draftDiscard")}
          </Button>
        </Space>
      }
    />
  );
}

const SERVER_FIELDS = ["server_id", "host_ip"] as const;

function ServerFields({ table, server, issues, readOnly, onChange }: { table: JsonValue | undefined; server: number; issues: Map<string, Issue[]>; readOnly: boolean; onChange: (field: string, value: string | undefined) => void }) {
  const t = useTranslations("rankTables.editor");
  const entry = table && typeof table === "object" && !Array.isArray(table) && Array.isArray(table.server_list) ? table.server_list[server] : undefined;
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) return null;
  return (
    <Space wrap style={{ marginBottom: 8 }}>
      {SERVER_FIELDS.map((field) => {
        const found = issues.get(`/server_list/${server}/${field}`);
        const value = typeof entry[field] === "string" ? (entry[field] as string) : entry[field] === undefined ? "" : JSON.stringify(entry[field]);
        return (
          <Tooltip key={`${server}:${field}`} title={found?.map((issue) => `${issue.code}: ${issue.message}`).join("\n")}>
            <Input
              key={`${server}:${field}:${value}`}
              size="small"
              prefix={<span style={{ opacity: 0.6 }}>{field}</span>}
              aria-label={t("serverField", { field })}
              status={found?.some((issue) => issue.severity === "error") ? "error" : found?.length ? "warning" : undefined}
              defaultValue={value}
              readOnly={readOnly}
              style={{ width: 260, fontFamily: "var(--font-mono)" }}
              onBlur={(event) => {
                const next = event.target.value.trim() || undefined;
                if (next !== (value || undefined)) onChange(field, next);
              }}
              onKeyDown={(event) => event.key === "Enter" && (event.target as HTMLInputElement).blur()}
            />
          </Tooltip>
        );
      })}
    </Space>
  );
}
