"use client";

import { CloseCircleOutlined, ExclamationCircleOutlined } from "@ant-design/icons";
import { Empty, Select, Space, Table, Tag, Typography } from "antd";
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

/**
 * The PT findings, errors first, each message naming both parties in the reader's language; a code filter when
 * `onCode` is given (the page keeps it in the URL).
 */
export function PortFindings({ findings, code, onCode, pageSize = 20 }: { findings: readonly PortFinding[]; code?: PortCode; onCode?: (code: PortCode | undefined) => void; pageSize?: number }) {
  const t = useTranslations("ports");
  const text = useBilingual();
  const shown = code ? findings.filter((f) => f.code === code) : findings;
  const codes = [...new Set(findings.map((f) => f.code))].sort();
  return (
    <Space orientation="vertical" size={8} style={{ width: "100%" }}>
      <Space wrap>
        <Typography.Text data-testid="findings-count">{t("findingsCount", { shown: shown.length, total: findings.length })}</Typography.Text>
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
        {shown.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("noFindings")} />
        ) : (
          <Table<PortFinding & { key: number }>
            size="small"
            dataSource={shown.map((f, key) => ({ ...f, key }))}
            pagination={{ pageSize, hideOnSinglePage: true, showSizeChanger: false }}
            columns={[
              { title: t("columns.severity"), dataIndex: "severity", width: 110, render: (s: PortFinding["severity"]) => <SeverityTag severity={s} /> },
              { title: t("columns.code"), dataIndex: "code", width: 80, sorter: (a, b) => a.code.localeCompare(b.code), render: (c: PortCode) => <span title={portCodes[c]}>{c}</span> },
              { title: t("columns.message"), key: "message", render: (_, f) => text(f.message) },
              { title: t("columns.ports"), dataIndex: "ports", width: 120, render: (p: PortFinding["ports"]) => (p ? formatRange(p) : "—") },
            ]}
          />
        )}
      </div>
    </Space>
  );
}
