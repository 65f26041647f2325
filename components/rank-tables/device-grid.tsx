"use client";

import { DeleteOutlined } from "@ant-design/icons";
import { Button, Input, Table, Tooltip } from "antd";
import { useTranslations } from "next-intl";
import { forwardRef, memo, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from "react";
import type { Issue, Severity } from "@/lib/rank-table";
import { DEVICE_EDIT_FIELDS, type DeviceField } from "@/lib/rank-table-workspace/edit";
import type { DeviceRow } from "@/lib/rank-table-workspace/structure";
import { useFieldFindings, useRowSeverity } from "./findings-store";

export interface DeviceGridHandle {
  /** Scrolls to a die and focuses one of its fields. */
  focus(rowKey: string, field?: string): void;
}

interface Props {
  rows: DeviceRow[];
  readOnly: boolean;
  selectedRow: string | undefined;
  onSelectRow: (key: string) => void;
  onChange: (row: DeviceRow, field: DeviceField, value: string | undefined) => void;
  onRemove: (row: DeviceRow) => void;
  height: number;
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const worst = (issues: Issue[] | undefined) => issues?.slice().sort((a, b) => severityRank[a.severity] - severityRank[b.severity])[0];

/**
 * One editable field: commits on Enter or leaving the field, Escape puts the saved value back. Memoised on its row
 * object (unchanged rows keep theirs) and reading its own findings, so an edit or a report re-renders only the cells
 * it concerns.
 */
const Cell = memo(function Cell({ row, field, readOnly, label, onChange }: { row: DeviceRow; field: DeviceField; readOnly: boolean; label: string; onChange: Props["onChange"] }) {
  const value = row.values[field];
  const issues = useFieldFindings(`/server_list/${row.server}/device/${row.device}/${field}`);
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
      data-cell={`${row.key}:${field}`}
      value={draft}
      readOnly={readOnly}
      spellCheck={false}
      style={{ fontFamily: "var(--font-mono)", fontSize: 12 }}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={() => {
        const next = draft.trim() === "" ? undefined : draft.trim();
        if (next !== value) onChange(row, field, next);
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

/** The server column: the die's server, with ✖/▲ (and a class the row's left edge is coloured by) for its worst finding. */
const RowMark = memo(function RowMark({ rowKey, serverId }: { rowKey: string; serverId: string }) {
  const severity = useRowSeverity(rowKey);
  return (
    <span className={severity ? `rt-row-mark-${severity}` : undefined} style={{ fontFamily: "var(--font-mono)", fontSize: 12 }}>
      {severity === "error" ? "✖ " : severity === "warning" ? "▲ " : ""}
      {serverId}
    </span>
  );
});

const columnWidth = (field: DeviceField) => (field.includes("ip") ? 140 : field.startsWith("backup") || field === "super_device_id" ? 120 : 92);

export const DeviceGrid = memo(
  forwardRef<DeviceGridHandle, Props>(function DeviceGrid({ rows, readOnly, selectedRow, onSelectRow, onChange, onRemove, height }, ref) {
    const t = useTranslations("rankTables.editor");
    const tableRef = useRef<{ scrollTo: (config: { index?: number; key?: string }) => void; nativeElement: HTMLDivElement } | null>(null);

    useImperativeHandle(
      ref,
      () => ({
        focus(rowKey, field) {
          const index = rows.findIndex((row) => row.key === rowKey);
          if (index < 0) return;
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
      }),
      [rows],
    );

    // Independent of the rows and the findings, so the table's cells keep their render functions across edits.
    const columns = useMemo(
      () => [
        {
          title: t("server"),
          dataIndex: "serverId",
          key: "serverId",
          width: 120,
          fixed: "left" as const,
          render: (_: unknown, row: DeviceRow) => <RowMark rowKey={row.key} serverId={row.serverId} />,
        },
        ...DEVICE_EDIT_FIELDS.map((field) => ({
          title: field,
          key: field,
          width: columnWidth(field),
          render: (_: unknown, row: DeviceRow) => (
            <Cell row={row} field={field} readOnly={readOnly} label={t("cellLabel", { field, server: row.serverId, device: row.values.device_id ?? String(row.device) })} onChange={onChange} />
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
      [readOnly, onChange, onRemove, t],
    );
    const rowClassName = useCallback((row: DeviceRow) => (row.key === selectedRow ? "rt-row-selected" : ""), [selectedRow]);
    const onRow = useCallback((row: DeviceRow) => ({ onClick: () => onSelectRow(row.key) }), [onSelectRow]);
    const scroll = useMemo(() => ({ x: 1150, y: height }), [height]);
    const locale = useMemo(() => ({ emptyText: t("noDies") }), [t]);

    return (
      <Table<DeviceRow>
        ref={tableRef as never}
        aria-label={t("gridLabel")}
        size="small"
        virtual
        bordered
        scroll={scroll}
        pagination={false}
        rowKey="key"
        dataSource={rows}
        columns={columns}
        locale={locale}
        rowClassName={rowClassName}
        onRow={onRow}
      />
    );
  }),
);
