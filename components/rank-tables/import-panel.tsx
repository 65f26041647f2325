"use client";

import { InboxOutlined } from "@ant-design/icons";
import { App, Button, Card, Input, InputNumber, Progress, Segmented, Space, Steps, Tabs, Typography, Upload } from "antd";
import { useTranslations } from "next-intl";
import { useRef, useState, useSyncExternalStore } from "react";
import { generateFromHccn, writeRankTable } from "@/lib/rank-table";
import { addHccnFile, hasHccnAddresses, type HccnFile } from "@/lib/rank-table-workspace/hccn-files";
import { IMPORT_STAGES, type ImportStage } from "@/lib/rank-table-workspace/import";
import { InventoryImport, type InventoryActions } from "./inventory-import";

export interface ImportProgress {
  stage: ImportStage;
  /** The file (or pasted text) being imported. */
  name: string | undefined;
  /** Share of the file read so far (0–100), while reading. */
  percent?: PercentStore | undefined;
}

/**
 * The share read, which only the progress bar follows: kept in the workspace's state, each update re-rendered the whole
 * workspace, about half of a core for the whole of a large open (trace of `npm run bench -- editor-browser`, 131,072
 * ranks: 4.3 s of React work on the page's main thread before the first rows), taken from the workers on 2 cores.
 */
export interface PercentStore {
  get: () => number;
  set: (percent: number) => void;
  subscribe: (listener: () => void) => () => void;
}

export function percentStore(): PercentStore {
  let percent = 0;
  const listeners = new Set<() => void>();
  return {
    get: () => percent,
    set: (next) => {
      if (next === percent) return;
      percent = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The bar moves without antd's 0.3 s width transition: updated every 250 ms, the bar never stopped animating, and a
 * width is animated on the main thread (style, layout and paint at the frame rate: 130 ms of every second of a
 * 131,072-rank open, and the compositor's frames besides; trace of `npm run bench -- editor-browser`).
 */
const STILL_TRACK = { track: { transition: "none" } };

function ReadProgress({ store }: { store: PercentStore }) {
  const percent = useSyncExternalStore(store.subscribe, store.get, store.get);
  return <Progress percent={percent} size="small" style={{ width: 160 }} styles={STILL_TRACK} />;
}

/** Reads a file as text, reporting how much is read; `abort` stops the reading (the promise then never settles). */
export function readFileText(file: Blob, onProgress: (percent: number) => void): { text: Promise<string>; abort: () => void } {
  const reader = new FileReader();
  const text = new Promise<string>((resolve, reject) => {
    reader.onprogress = (event) => event.lengthComputable && onProgress(Math.round((event.loaded / event.total) * 100));
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error("the file could not be read"));
  });
  reader.readAsText(file);
  return { text, abort: () => reader.abort() };
}

/** The stages of a running import and its Cancel (which leaves whatever was there before untouched). */
function ImportProgressCard({ progress, onCancel }: { progress: ImportProgress; onCancel: () => void }) {
  const t = useTranslations("rankTables.importProgress");
  const title = progress.name ? t("titleNamed", { name: progress.name }) : t("title");
  const current = IMPORT_STAGES.indexOf(progress.stage);
  return (
    <section aria-label={title} style={{ marginBottom: 16 }}>
      <Typography.Text strong>{title}</Typography.Text>
      <Steps
        size="small"
        current={current}
        style={{ margin: "12px 0" }}
        // While the table is drawn the worker is still validating it: both run.
        items={IMPORT_STAGES.map((stage) => ({ title: t(stage), status: stage === "validating" && progress.stage === "rendering" ? "process" : undefined }))}
      />
      <Space>
        <span aria-live="polite">{t("now", { stage: t(progress.stage) })}</span>
        {progress.stage === "reading" && progress.percent !== undefined && <ReadProgress store={progress.percent} />}
        <Button onClick={onCancel}>{t("cancel")}</Button>
      </Space>
    </section>
  );
}

/**
 * Where a new table comes from: pasted text, a picked or dropped file (.json, comments allowed), or the
 * hccn.conf files of the servers (one file per server; the file name is the server id).
 */
export function ImportPanel({
  onImport,
  onImportFile,
  progress,
  onCancel,
  inventoryActions,
}: {
  onImport: (text: string, name: string | undefined) => void;
  /** A picked or dropped file: read with progress by the workspace. */
  onImportFile: (file: File) => void;
  progress: ImportProgress | undefined;
  onCancel: () => void;
  inventoryActions?: InventoryActions | undefined;
}) {
  const t = useTranslations("rankTables.import");
  const { message } = App.useApp();
  const [text, setText] = useState("");
  const [hccn, setHccn] = useState<HccnFile[]>([]);
  /** Numbers the files in the order they were given, whatever order their reads finish in. */
  const hccnOrder = useRef(0);
  const [version, setVersion] = useState<"1.0" | "1.2">("1.2");
  const [basePort, setBasePort] = useState<number | null>(null);

  const readFile = (file: File) => {
    onImportFile(file);
    return false;
  };

  const buildFromHccn = () => {
    try {
      const table = generateFromHccn(hccn, { version, basePort: basePort ?? undefined });
      onImport(writeRankTable(table), undefined);
    } catch (error) {
      message.error((error as Error).message);
    }
  };

  return (
    <Card>
      {progress && <ImportProgressCard progress={progress} onCancel={onCancel} />}
      <Tabs
        items={[
          {
            key: "file",
            label: t("fromFile"),
            children: (
              <div style={{ display: "grid", gridTemplateColumns: "minmax(0, 2fr) minmax(240px, 1fr)", gap: 16 }}>
                <Space orientation="vertical" style={{ width: "100%" }}>
                  <Input.TextArea
                    aria-label={t("pasteLabel")}
                    placeholder={t("pastePlaceholder")}
                    value={text}
                    onChange={(event) => setText(event.target.value)}
                    autoSize={{ minRows: 8, maxRows: 16 }}
                    spellCheck={false}
                    style={{ fontFamily: "var(--font-mono)", fontSize: 12 }}
                  />
                  <Button type="primary" disabled={!text.trim()} onClick={() => onImport(text, undefined)}>
                    {t("open")}
                  </Button>
                </Space>
                <Upload.Dragger accept=".json,.jsonc,application/json,text/plain" multiple={false} showUploadList={false} beforeUpload={readFile}>
                  <p className="ant-upload-drag-icon">
                    <InboxOutlined />
                  </p>
                  <p>{t("dropHint")}</p>
                </Upload.Dragger>
              </div>
            ),
          },
          ...(inventoryActions ? [{ key: "inventory", label: t("fromInventory"), children: <InventoryImport actions={inventoryActions} onImport={onImport} /> }] : []),
          {
            key: "hccn",
            label: t("fromHccn"),
            children: (
              <Space orientation="vertical" style={{ width: "100%" }}>
                <Typography.Paragraph type="secondary">{t("hccnHint")}</Typography.Paragraph>
                <Upload.Dragger
                  multiple
                  showUploadList={false}
                  beforeUpload={(file) => {
                    const order = hccnOrder.current++;
                    file
                      .text()
                      .then((content) => {
                        if (hasHccnAddresses(content)) setHccn((files) => addHccnFile(files, file.name, content, order));
                        else message.error(t("hccnNoAddresses", { name: file.name }));
                      })
                      .catch(() => message.error(t("readFailed", { name: file.name })));
                    return false;
                  }}
                >
                  <p className="ant-upload-drag-icon">
                    <InboxOutlined />
                  </p>
                  <p>{t("hccnDrop")}</p>
                </Upload.Dragger>
                <Typography.Text>{t("hccnServers", { count: hccn.length, names: hccn.map((server) => server.serverId).join(", ") })}</Typography.Text>
                <Space wrap>
                  <Segmented<"1.0" | "1.2"> value={version} onChange={setVersion} options={[{ value: "1.2", label: t("version12") }, { value: "1.0", label: t("version10") }]} />
                  <InputNumber aria-label={t("basePort")} placeholder={t("basePort")} min={1024} max={65535} value={basePort} onChange={setBasePort} />
                  <Button type="primary" disabled={hccn.length === 0} onClick={buildFromHccn}>
                    {t("build")}
                  </Button>
                  <Button disabled={hccn.length === 0} onClick={() => setHccn([])}>
                    {t("clear")}
                  </Button>
                </Space>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
