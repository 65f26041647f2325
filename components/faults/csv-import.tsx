"use client";

import { InboxOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Progress, Space, Tag, Typography, Upload } from "antd";
import { Table } from "@/components/primitives/table";
import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import { ApiRequestError } from "@/components/primitives/fetch-json";
import { parseFaultCsv, type CsvParse } from "@/lib/faults/csv";
import { faultKeys } from "./api";
import { problemOfError, useProblemText, type StatedProblem } from "./problem-text";

interface RowStatus {
  line: number;
  status: "created" | "closed" | "unchanged" | "invalid";
  /** Found in the browser (unreadable numbers) or refused by the server, shown in the reader's language. */
  problems: StatedProblem[];
  summary: string;
}

const chunkSize = 5_000;

async function postChunk(items: unknown[], dryRun: boolean, signal: AbortSignal): Promise<{ index: number; status: RowStatus["status"]; error?: StatedProblem }[]> {
  const response = await fetch(`/api/v1/fault-events?atomic=item${dryRun ? "&dryRun=1" : ""}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(items),
    signal,
  });
  const body = (await response.json().catch(() => undefined)) as { items?: []; error?: { code: string; message: string } } | undefined;
  if (!response.ok || !body?.items) throw new ApiRequestError(response.status, body?.error?.code ?? "http_error", body?.error?.message ?? `HTTP ${response.status}`);
  return body.items;
}

/**
 * CSV import of historical events: read the file in the browser, preview every row (the server's dry run says
 * which would be created, which exist already, which are refused and why), then import the valid rows in chunks
 * with progress; the import can be cancelled between chunks. Re-importing a file changes nothing.
 */
export function CsvImport({ cluster, canWrite }: { cluster: string; canWrite: boolean }) {
  const t = useTranslations("faults.csv");
  const client = useQueryClient();
  const [file, setFile] = useState<{ name: string; parse: CsvParse } | null>(null);
  const [statuses, setStatuses] = useState<RowStatus[] | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number; phase: "preview" | "import" } | null>(null);
  const problemText = useProblemText();
  const [error, setError] = useState<StatedProblem | null>(null);
  const [imported, setImported] = useState<Record<string, number> | null>(null);
  const abort = useRef<AbortController | null>(null);

  const run = async (parse: CsvParse, dryRun: boolean) => {
    setError(null);
    const controller = new AbortController();
    abort.current = controller;
    const rows = parse.rows.filter((r) => r.errors.length === 0);
    const result: RowStatus[] = parse.rows.filter((r) => r.errors.length > 0).map((r) => ({ line: r.line, status: "invalid", problems: r.errors, summary: summary(r.item) }));
    try {
      for (let start = 0; start < rows.length; start += chunkSize) {
        if (controller.signal.aborted) break;
        setProgress({ done: start, total: rows.length, phase: dryRun ? "preview" : "import" });
        const chunk = rows.slice(start, start + chunkSize);
        const items = await postChunk(chunk.map((r) => r.item), dryRun, controller.signal);
        for (const item of items) {
          const row = chunk[item.index]!;
          result.push({ line: row.line, status: item.status, problems: item.error ? [item.error] : [], summary: summary(row.item) });
        }
      }
    } catch (e) {
      if (!controller.signal.aborted) setError(problemOfError(e as Error));
    } finally {
      setProgress(null);
      abort.current = null;
    }
    result.sort((a, b) => a.line - b.line);
    setStatuses(result);
    if (!dryRun) {
      const counts: Record<string, number> = {};
      for (const r of result) counts[r.status] = (counts[r.status] ?? 0) + 1;
      setImported(counts);
      void client.invalidateQueries({ queryKey: faultKeys.all });
    }
  };

  const counts = statuses?.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {}) ?? {};
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <Typography.Paragraph type="secondary">{t("intro")}</Typography.Paragraph>
      <Upload.Dragger
        accept=".csv,text/csv"
        showUploadList={false}
        disabled={!canWrite || progress !== null}
        beforeUpload={(f) => {
          void f.text().then((text) => {
            const parse = parseFaultCsv(text, cluster);
            setFile({ name: f.name, parse });
            setStatuses(null);
            setImported(null);
            if (parse.errors.length === 0) void run(parse, true);
          });
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{canWrite ? t("drop") : t("needsEditor")}</p>
      </Upload.Dragger>
      {file?.parse.errors.map((e, i) => <Alert key={i} type="error" showIcon title={problemText(e)} />)}
      {file?.parse.unknownColumns.length ? <Alert type="warning" showIcon title={t("unknownColumns", { columns: file.parse.unknownColumns.join(", ") })} /> : null}
      {error ? <Alert type="error" showIcon title={t("failed")} description={problemText(error)} /> : null}
      {progress ? (
        <Space>
          <Progress style={{ width: 320 }} percent={Math.round((progress.done / Math.max(1, progress.total)) * 100)} />
          <Typography.Text>{t(progress.phase === "preview" ? "previewing" : "importing")}</Typography.Text>
          <Button onClick={() => abort.current?.abort()}>{t("cancel")}</Button>
        </Space>
      ) : null}
      {imported ? <Alert type="success" showIcon title={t("done", { created: imported.created ?? 0, unchanged: imported.unchanged ?? 0, invalid: imported.invalid ?? 0 })} /> : null}
      {statuses && file ? (
        <>
          <Space wrap>
            <Typography.Text strong>{file.name}</Typography.Text>
            <Tag color="success">{t("wouldCreate", { count: counts.created ?? 0 })}</Tag>
            <Tag>{t("known", { count: counts.unchanged ?? 0 })}</Tag>
            <Tag color="error">{t("refused", { count: counts.invalid ?? 0 })}</Tag>
            <Button type="primary" disabled={!canWrite || progress !== null || imported !== null || !(counts.created || counts.closed)} onClick={() => void run(file.parse, false)}>
              {t("import", { count: (counts.created ?? 0) + (counts.closed ?? 0) })}
            </Button>
          </Space>
          <Table<RowStatus>
            size="small"
            rowKey="line"
            dataSource={statuses}
            pagination={{ defaultPageSize: 20, showTotal: (total) => t("rows", { count: total }) }}
            columns={[
              { title: t("line"), dataIndex: "line", width: 80, sorter: (a, b) => a.line - b.line },
              {
                title: t("status"),
                dataIndex: "status",
                width: 130,
                filters: ["created", "unchanged", "invalid"].map((s) => ({ text: t(`status_${s}`), value: s })),
                onFilter: (value, r) => r.status === value,
                render: (s: RowStatus["status"]) => <Tag color={s === "invalid" ? "error" : s === "created" ? "success" : "default"}>{t(`status_${s}`)}</Tag>,
              },
              { title: t("event"), dataIndex: "summary" },
              { title: t("problem"), dataIndex: "problems", render: (problems: StatedProblem[]) => problems.map(problemText).join("; ") },
            ]}
          />
        </>
      ) : null}
    </Space>
  );
}

function summary(item: Record<string, unknown>): string {
  const target = item.target as { server?: string; die?: number; superPod?: string } | undefined;
  const where = target?.server ? `${target.server}${target.die !== undefined ? ` / ${target.die}` : ""}` : target?.superPod ? `super pod ${target.superPod}` : "cluster";
  return [String(item.beganAt ?? "?"), where, String(item.kind ?? "?"), item.code ? String(item.code) : ""].filter(Boolean).join(" · ");
}
