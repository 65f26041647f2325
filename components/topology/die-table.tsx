"use client";

import { Tag, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import { useFormatter, useTranslations } from "next-intl";
import { memo, startTransition, useEffect, useMemo, useState } from "react";
import type { TopologyNode } from "@/lib/topology/model";
import { nodeKey } from "./chart-option";

/**
 * Rows added to the table per task. Rendered and committed at once, a server's 64 dies were a React task of 100–200 ms
 * and a neighbourhood's 768 many times that (issue 21: no task over 50 ms); a commit is never split, so the rows
 * come 32 a task, in the order the table first shows them, so each step only appends (after a first step of none).
 */
const ROWS_A_TASK = 32;

const byDeviceId = (a: TopologyNode, b: TopologyNode) => (a.deviceId ?? 0) - (b.deviceId ?? 0);

/** `rows` sorted as the table sorts them at first, growing ROWS_A_TASK at a time, each step in a task of its own. */
function useRowsInSteps(rows: TopologyNode[]): TopologyNode[] {
  const sorted = useMemo(() => [...rows].sort(byDeviceId), [rows]);
  // The first step has no rows: the Table's first mount (its code evaluated, its shell rendered) is a task of its own,
  // not one with the first rows. Its styles are antd's static CSS (zeroRuntime, app-providers.tsx): generated here,
  // they were 70–150 ms of that task at load 10–15.
  const [shown, setShown] = useState({ of: sorted, count: 0 });
  // Other rows start again from the first step (the Table is mounted by then).
  const current = shown.of === sorted ? shown : { of: sorted, count: ROWS_A_TASK };
  if (current !== shown) setShown(current);
  useEffect(() => {
    if (current.count >= sorted.length) return;
    const timer = setTimeout(() => startTransition(() => setShown({ of: sorted, count: current.count + ROWS_A_TASK })), 0);
    return () => clearTimeout(timer);
  }, [current.count, sorted]);
  return current.count >= sorted.length ? sorted : sorted.slice(0, current.count);
}

/**
 * The server view's table of its dies, with the rank each holds in the chosen rank table. Memoised: the page's other
 * updates (a query answered elsewhere on it) do not render its rows again.
 */
export const DieTable = memo(function DieTable({
  dies,
  selectedKey,
  ranks,
  onSelect,
}: {
  dies: TopologyNode[];
  selectedKey: string | null;
  ranks: Map<string, number> | undefined;
  onSelect: (die: TopologyNode) => void;
}) {
  const t = useTranslations("topology");
  const format = useFormatter();
  const shown = useRowsInSteps(dies);
  return (
    <section aria-label={t("dieTable.title")}>
      <Typography.Title level={2} style={{ fontSize: 16 }}>
        {t("dieTable.title")} <Tag>{format.number(dies.length)}</Tag>
      </Typography.Title>
      <Table<TopologyNode>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={shown}
        // Empty only for the first step (see useRowsInSteps): no "No data" for that moment.
        locale={shown.length === 0 && dies.length > 0 ? { emptyText: " " } : undefined}
        rowClassName={(row) => (nodeKey(row) === selectedKey ? "ant-table-row-selected" : "")}
        onRow={(row) => ({ onClick: () => onSelect(row) })}
        columns={[
          { title: t("fields.npuIndex"), dataIndex: "npuIndex", sorter: (a, b) => (a.npuIndex ?? 0) - (b.npuIndex ?? 0) },
          { title: t("fields.deviceId"), dataIndex: "deviceId", sorter: byDeviceId, defaultSortOrder: "ascend" },
          { title: t("fields.dieIndex"), dataIndex: "dieIndex" },
          { title: t("fields.superDeviceId"), dataIndex: "superDeviceId" },
          { title: t("fields.deviceIp"), dataIndex: "deviceIp", render: (v: string | null, row) => (v ? `${v}:${row.devicePort ?? ""}` : "—") },
          { title: t("fields.backupDeviceIp"), dataIndex: "backupDeviceIp", render: (v: string | null, row) => (v ? `${v}:${row.backupDevicePort ?? ""}` : "—") },
          { title: t("fields.hostPort"), dataIndex: "hostPort" },
          {
            title: t("fields.rank"),
            key: "rank",
            render: (_, row) => {
              const rank = ranks ? ranks.get(row.id) : row.rank;
              return rank === undefined ? "—" : format.number(rank);
            },
          },
          { title: t("fields.health"), dataIndex: "health", render: (h: TopologyNode["health"]) => t(`health.${h}`) },
        ]}
      />
    </section>
  );
});
