"use client";

import { CloseCircleOutlined, ExclamationCircleOutlined } from "@ant-design/icons";
import { Empty, Select, Space, Tag, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import { useTranslations } from "next-intl";
import { useBilingual } from "@/components/faults/use-bilingual";
import { portCodes, type PortCode, type PortFinding } from "@/lib/ports/findings";
import { formatRange } from "@/lib/ports/ranges";

/** Error red, warning amber, each with its icon (colour is never the only signal). */
export function SeverityTag({ severity }: { severity: PortFinding["severity"] }) {
  const t = useTranslations("ports");
  return severity === "error" ? (
    <Tag color="error" icon={<CloseCircleOutlined />}>
      {t("severity.error")}
    </Tag>
  ) : (
    <Tag color="warning" icon={<ExclamationCircleOutlined />}>
      {t("severity.warning")}
    </Tag>
  );
}

/** What the list shows of a finding (a page from the server cuts its hosts and ranks, never these). */
type FindingRow = Pick<PortFinding, "code" | "severity" | "message" | "ports">;

/**
 * A page of findings from the server (the job page: `GET /api/v1/jobs/{id}/ports/findings`), already filtered by
 * `code`: the pager asks for another page, the code filter offers the codes the summary counted.
 */
export interface RemoteFindings {
  /** Findings that pass the filter. */
  total: number;
  /** Findings of the job, whatever the filter. */
  all: number;
  /** 1-based. */
  page: number;
  pageSize: number;
  loading: boolean;
  codes: readonly PortCode[];
  onPage: (page: number) => void;
}

/**
 * The PT findings, errors first, each message naming both parties in the reader's language; a code filter when
 * `onCode` is given (the page keeps it in the URL).
 */
export function PortFindings({
  findings,
  code,
  onCode,
  pageSize = 20,
  remote,
}: {
  findings: readonly FindingRow[];
  code?: PortCode;
  onCode?: (code: PortCode | undefined) => void;
  pageSize?: number;
  remote?: RemoteFindings;
}) {
  const t = useTranslations("ports");
  const text = useBilingual();
  const shown = code && !remote ? findings.filter((f) => f.code === code) : findings;
  const codes = remote ? [...remote.codes] : [...new Set(findings.map((f) => f.code))].sort();
  const offset = remote ? (remote.page - 1) * remote.pageSize : 0;
  return (
    <Space orientation="vertical" size={8} style={{ width: "100%" }}>
      <Space wrap>
        <Typography.Text data-testid="findings-count">{t("findingsCount", remote ? { shown: remote.total, total: remote.all } : { shown: shown.length, total: findings.length })}</Typography.Text>
        {onCode && (
          <Select<PortCode | "">
            aria-label={t("codeFilter")}
            size="small"
            style={{ minWidth: 260 }}
            value={code ?? ""}
            onChange={(value) => onCode(value === "" ? undefined : value)}
            options={[{ value: "", label: t("allCodes") }, ...codes.map((c) => ({ value: c, label: `${c} · ${t(`codes.${c}`)}` }))]}
          />
        )}
      </Space>
      <div role="region" aria-label={t("findings")}>
        {shown.length === 0 && !remote?.loading ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("noFindings")} />
        ) : (
          <Table<FindingRow & { key: number }>
            size="small"
            dataSource={shown.map((f, i) => ({ ...f, key: offset + i }))}
            loading={remote?.loading}
            pagination={
              remote
                ? { current: remote.page, pageSize: remote.pageSize, total: remote.total, hideOnSinglePage: true, showSizeChanger: false, onChange: remote.onPage }
                : { pageSize, hideOnSinglePage: true, showSizeChanger: false }
            }
            columns={[
              { title: t("columns.severity"), dataIndex: "severity", width: 110, render: (s: PortFinding["severity"]) => <SeverityTag severity={s} /> },
              { title: t("columns.code"), dataIndex: "code", width: 80, sorter: remote ? undefined : (a, b) => a.code.localeCompare(b.code), render: (c: PortCode) => <span title={portCodes[c]}>{c}</span> },
              { title: t("columns.message"), key: "message", render: (_, f) => text(f.message) },
              { title: t("columns.ports"), dataIndex: "ports", width: 120, render: (p: PortFinding["ports"]) => (p ? formatRange(p) : "—") },
            ]}
          />
        )}
      </div>
    </Space>
  );
}
