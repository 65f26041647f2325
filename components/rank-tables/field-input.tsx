"use client";

import { Input } from "antd";
import { useTranslations } from "next-intl";
import { useState } from "react";
import type { Issue, Severity } from "@/lib/rank-table";
import type { GridField } from "@/lib/rank-table-workspace/edit";
import { rowFieldPath, type DeviceRow } from "@/lib/rank-table-workspace/structure";
import { useFieldFindings } from "./findings-store";

/** A grid column's width by its field, shared by the table grid and the hosted grid. */
export const columnWidth = (field: GridField) => (field.includes("ip") ? 140 : field.startsWith("backup") || field === "super_device_id" ? 120 : 92);

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const worst = (issues: Issue[] | undefined) => issues?.slice().sort((a, b) => severityRank[a.severity] - severityRank[b.severity])[0];

/**
 * One editable field of a die's row, in both grids: commits on Enter or leaving the field, Escape puts the saved value
 * back, and its findings mark it and fill its tooltip. `width`: the input's own width, when the grid sets one.
 */
export function FieldInput({ row, field, readOnly, onChange, width }: { row: DeviceRow; field: GridField; readOnly: boolean; onChange: (row: DeviceRow, field: GridField, value: string | undefined) => void; width?: number }) {
  const t = useTranslations("rankTables.editor");
  const value = row.values[field];
  const issues = useFieldFindings(rowFieldPath(row, field));
  const [draft, setDraft] = useState(value ?? "");
  // A new value (an edit, undo, a repair) replaces what the field shows.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(value ?? "");
  }
  const top = worst(issues);
  // The findings are the input's own title, not an antd Tooltip around it: each cell's tooltip (a trigger with its
  // hooks and refs) was a share of the commit that mounts a screenful of rows, a task of 57-76 ms when a 524,288-rank
  // table opened (issue 21). The input is never remounted when a finding appears or goes: focus and typing stay.
  return (
    <Input
      size="small"
      variant={top ? "outlined" : "borderless"}
      status={top?.severity === "error" ? "error" : top?.severity === "warning" ? "warning" : undefined}
      aria-label={t("cellLabel", { field, server: row.serverId, device: row.values.device_id ?? String(row.device) })}
      aria-invalid={top?.severity === "error" ? true : undefined}
      data-cell={`${row.key}:${field}`}
      title={issues?.length ? issues.map((issue) => `${issue.code}: ${issue.message}`).join("\n") : undefined}
      value={draft}
      readOnly={readOnly}
      spellCheck={false}
      style={{ fontFamily: "var(--font-mono)", fontSize: 12, ...(width === undefined ? {} : { width }) }}
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
}
