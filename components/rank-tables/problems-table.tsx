"use client";

import { Segmented, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import { useTranslations } from "next-intl";
import { memo } from "react";
import type { Issue } from "@/lib/rank-table";
import { countBySeverity, type SeverityFilter } from "./severity-counts";
import { SeverityTag } from "./severity-tag";

/** A finding of the validator, or of a cluster check (CL001: the layout against the linked cluster's hardware). */
export type Problem = Omit<Issue, "code"> & { code: Issue["code"] | "CL001" };

const severityOrder = { error: 0, warning: 1, info: 2 } as const;
const virtualFrom = 200;

/** Memoised: the workspace re-renders on every edit, the findings change only with a report. */
export const ProblemsTable = memo(function ProblemsTable({
  issues,
  counts: given,
  severity,
  onSeverityChange,
  onSelect,
}: {
  issues: Problem[];
  /** Every finding counted, when the list shows only some of them (a capped report). */
  counts?: Record<Problem["severity"] | "all", number> | undefined;
  severity: SeverityFilter;
  onSeverityChange: (severity: SeverityFilter) => void;
  /** Clicking a finding selects its field (in the grid or the text). */
  onSelect?: (issue: Problem) => void;
}) {
  const t = useTranslations("rankTables");
  const counts = given ?? { ...countBySeverity(issues), all: issues.length };
  const shown = severity === "all" ? issues : issues.filter((issue) => issue.severity === severity);
  return (
    <section aria-labelledby="problems-heading">
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", marginBottom: 8 }}>
        <Typography.Title level={2} id="problems-heading" style={{ fontSize: 16, margin: 0 }}>
          {t("problems", { count: shown.length })}
        </Typography.Title>
        <Segmented<SeverityFilter>
          aria-label={t("filterBySeverity")}
          value={severity}
          onChange={onSeverityChange}
          options={[
            { value: "all", label: t("all", { count: counts.all }) },
            { value: "error", label: t("errors", { count: counts.error }) },
            { value: "warning", label: t("warnings", { count: counts.warning }) },
            { value: "info", label: t("infos", { count: counts.info }) },
          ]}
        />
      </div>
      <Table<Problem>
        size="small"
        // Long lists (a broken 16k-rank table) are virtualised; short ones stay plain table rows for assistive tech.
        virtual={shown.length > virtualFrom}
        scroll={shown.length > virtualFrom ? { y: 480 } : undefined}
        pagination={false}
        rowKey={(issue) => `${issue.code}|${issue.path}|${issue.message}`}
        dataSource={shown}
        locale={{ emptyText: t("noProblems") }}
        onRow={onSelect ? (issue) => ({ onClick: () => onSelect(issue), style: { cursor: "pointer" } }) : undefined}
        columns={[
          {
            title: t("severityColumn"),
            dataIndex: "severity",
            width: 110,
            defaultSortOrder: "ascend",
            sorter: (a, b) => severityOrder[a.severity] - severityOrder[b.severity],
            render: (value: Problem["severity"]) => <SeverityTag severity={value} />,
          },
          { title: t("code"), dataIndex: "code", width: 80, sorter: (a, b) => a.code.localeCompare(b.code) },
          {
            title: t("location"),
            key: "location",
            width: 90,
            sorter: (a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0),
            render: (_, issue) => (issue.line ? `${issue.line}:${issue.column}` : "—"),
          },
          {
            title: t("path"),
            dataIndex: "path",
            width: 260,
            render: (path: string, issue) =>
              onSelect ? (
                <Typography.Link onClick={(event) => { event.stopPropagation(); onSelect(issue); }}>
                  <code style={{ fontSize: 12 }}>{path || "/"}</code>
                </Typography.Link>
              ) : (
                <code style={{ fontSize: 12 }}>{path || "/"}</code>
              ),
          },
          { title: t("message"), dataIndex: "message" },
        ]}
      />
    </section>
  );
});
