"use client";

import { DeleteOutlined } from "@ant-design/icons";
import { Button, Input, Table, Tooltip } from "antd";
import { useTranslations } from "next-intl";
import { forwardRef, memo, useEffect, useImperativeHandle, useMemo, useRef, useState } from "react";
import type { Issue, Severity } from "@/lib/rank-table";
import { DEVICE_EDIT_FIELDS, type DeviceField } from "@/lib/rank-table-workspace/edit";
import type { DeviceRow, IssueIndex } from "@/lib/rank-table-workspace/structure";

export interface DeviceGridHandle {
  /** Scrolls to a die and focuses one of its fields. */
  focus(rowKey: string, field?: string): void;
}

interface Props {
  rows: DeviceRow[];
  issues: IssueIndex;
  readOnly: boolean;
  selectedRow: string | undefined;
  onSelectRow: (key: string) => void;
  onChange: (row: DeviceRow, field: DeviceField, value: string | undefined) => void;
  onRemove: (row: DeviceRow) => void;
  height: number;
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const worst = (issues: Issue[] | undefined) => issues?.slice().sort((a, b) => severityRank[a.severity] - severityRank[b.severity])[0];

/** One editable field: commits on Enter or leaving the field, Escape puts the saved value back. */
const Cell = memo(function Cell({
  rowKey,
  field,
  value,
  issues,
  readOnly,
  label,
  onCommit,
}: {
  rowKey: string;
  field: DeviceField;
  value: string | undefined;
  issues: Issue[] | undefined;
  readOnly: boolean;
  label: string;
  onCommit: (value: string | undefined) => void;
}) {
  const [draft, setDraft] = useState(value ?? "");
  useEffect(() => setDraft(value ?? ""), [value]);
  const top = worst(issues);
  const input = (
    <Input
      size="small"
      variant={top ? "outlined" : "borderless"}
      status={top?.severity === "error" ? "error" : top?.severity === "warning" ? "warning" : undefined}
      aria-label={label}
      aria-invalid={top?.severity === "error" ? true : undefined}
      data-cell={`${rowKey}:${field}`}
      value={draft}
      readOnly={readOnly}
      spellCheck={false}
      style={{ fontFamily: "var(--font-mono)", fontSize: 12 }}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={() => {
        const next = draft.trim() === "" ? undefined : draft.trim();
        if (next !== value) onCommit(next);
      }}
      onKeyDown={(event) => {
        if (event.key === "Enter") (event.target as HTMLInputElement).blur();
        if (event.key === "Escape") setDraft(value ?? "");
      }}
    />
  );
  // Always inside the tooltip (empty when there is nothing to say), so the input is not remounted when a finding
  // appears or goes: focus and the text being typed stay.
  return (
    <Tooltip title={issues?.length ? issues.map((issue) => `${issue.code}: ${issue.message}`).join("\n") : undefined} placement="topLeft">
      {input}
    </Tooltip>
  );
});

export const DeviceGrid = forwardRef<DeviceGridHandle, Props>(function DeviceGrid({ rows, issues, readOnly, selectedRow, onSelectRow, onChange, onRemove, height }, ref) {
  const t = useTranslations("rankTables.editor");
  const tableRef = useRef<{ scrollTo: (config: { index?: number; key?: string }) => void; nativeElement: HTMLDivElement } | null>(null);
  const indexOf = useMemo(() => new Map(rows.map((row, index) => [row.key, index])), [rows]);

  useImperativeHandle(ref, () => ({
    focus(rowKey, field) {
      const index = indexOf.get(rowKey);
      if (index === undefined) return;
      tableRef.current?.scrollTo({ index });
      let tries = 0;
      const attempt = () => {
        const selector = field ? `[data-cell="${rowKey}:${field}"]` : `[data-cell^="${rowKey}:"]`;
        const element = tableRef.current?.nativeElement.querySelector<HTMLInputElement>(selector);
        if (element) {
          element.focus();
          element.select();
        } else if (tries++ < 10) requestAnimationFrame(attempt);
      };
      requestAnimationFrame(attempt);
    },
  }), [indexOf]);

  const columns = useMemo(
    () => [
      {
        title: t("server"),
        dataIndex: "serverId",
        key: "serverId",
        width: 120,
        fixed: "left" as const,
        render: (_: unknown, row: DeviceRow) => {
          const severity = issues.byRow.get(row.key);
          return (
            <span style={{ fontFamily: "var(--font-mono)", fontSize: 12 }}>
              {severity === "error" ? "✖ " : severity === "warning" ? "▲ " : ""}
              {row.serverId}
            </span>
          );
        },
      },
      ...DEVICE_EDIT_FIELDS.map((field) => ({
        title: field,
        key: field,
        width: field.includes("ip") ? 140 : field.startsWith("backup") || field === "super_device_id" ? 120 : 92,
        render: (_: unknown, row: DeviceRow) => (
          <Cell
            rowKey={row.key}
            field={field}
            value={row.values[field]}
            issues={issues.byPath.get(`/server_list/${row.server}/device/${row.device}/${field}`)}
            readOnly={readOnly}
            label={t("cellLabel", { field, server: row.serverId, device: row.values.device_id ?? String(row.device) })}
            onCommit={(value) => onChange(row, field, value)}
          />
        ),
      })),
      ...(readOnly
        ? []
        : [
            {
              title: "",
              key: "actions",
              width: 44,
              render: (_: unknown, row: DeviceRow) => (
                <Tooltip title={t("removeDie")}>
                  <Button size="small" type="text" aria-label={t("removeDieOf", { server: row.serverId, device: row.values.device_id ?? "" })} icon={<DeleteOutlined />} onClick={() => onRemove(row)} />
                </Tooltip>
              ),
            },
          ]),
    ],
    [issues, readOnly, onChange, onRemove, t],
  );

  return (
    <Table<DeviceRow>
      ref={tableRef as never}
      aria-label={t("gridLabel")}
      size="small"
      virtual
      bordered
      scroll={{ x: 1150, y: height }}
      pagination={false}
      rowKey="key"
      dataSource={rows}
      columns={columns}
      locale={{ emptyText: t("noDies") }}
      rowClassName={(row) => {
        const severity = issues.byRow.get(row.key);
        return [row.key === selectedRow ? "rt-row-selected" : "", severity ? `rt-row-${severity}` : ""].join(" ");
      }}
      onRow={(row) => ({ onClick: () => onSelectRow(row.key) })}
    />
  );
});
