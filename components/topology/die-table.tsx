"use client";

import { Tag, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import { useAfterFirstTask } from "@/components/primitives/use-after-first-task";
import { useFormatter, useTranslations } from "next-intl";
import { memo, useMemo, useState } from "react";
import { healthStates, type Health, type TopologyNode } from "@/lib/topology/model";
import { parseSelection } from "@/lib/topology/url";
import { nodeKey } from "./chart-option";
import { FIRST_ORDER, orderDies, pageOfDie, type DieOrder, type DieSortKey } from "./die-rows";

/** Dies a page shows at first: an Atlas 950 server's 64 dies are two pages, a neighbourhood's hundreds a page at a time. */
const PAGE_SIZE = 32;
const PAGE_SIZES = [PAGE_SIZE, 64, 128];

/**
 * No rows for the first commit (useAfterFirstTask): the Table's first mount (its code evaluated, its shell rendered) is
 * a task of its own, not one with the first rows. Its styles are antd's static CSS (zeroRuntime, app-providers.tsx):
 * generated here, they were 70–150 ms of that task at load 10–15.
 */
const noRows: TopologyNode[] = [];

/**
 * The server view's table of its dies, with the rank each holds in the chosen rank table. Memoised: the page's other
 * updates (a query answered elsewhere on it) do not render its rows again. The page size is the page's (`pageSize`,
 * `onPageSize`): the table is made anew for each server opened, and a reader who chose 128 a page keeps it.
 */
export const DieTable = memo(function DieTable({
  dies,
  selectedKey,
  ranks,
  onSelect,
  pageSize = PAGE_SIZE,
  onPageSize,
}: {
  dies: TopologyNode[];
  selectedKey: string | null;
  ranks: Map<string, number> | undefined;
  onSelect: (die: TopologyNode) => void;
  /** Dies a page; undefined for the first size. */
  pageSize?: number | undefined;
  onPageSize: (size: number) => void;
}) {
  const t = useTranslations("topology");
  const format = useFormatter();
  const [order, setOrder] = useState<DieOrder>(FIRST_ORDER);
  const [health, setHealth] = useState<Health[] | null>(null);
  const rows = useMemo(() => orderDies(dies, order, health), [dies, order, health]);
  // The page shown: the one holding the die selected (in the graph, by search, from a link) whenever that changes, and
  // the first for new rows; otherwise where the reader paged to.
  const selection = parseSelection(selectedKey ?? undefined);
  const selectedDie = selection?.kind === "die" ? selection.id : null;
  const held = () => (selectedDie === null ? null : pageOfDie(rows, selectedDie, pageSize));
  const [place, setPlace] = useState(() => ({ page: held() ?? 1, of: rows, selected: selectedDie }));
  if (place.of !== rows || place.selected !== selectedDie) setPlace({ page: held() ?? (place.of === rows ? place.page : 1), of: rows, selected: selectedDie });
  const shown = useAfterFirstTask() ? rows : noRows;
  const sortOrder = (key: DieSortKey) => (order.key === key ? order.order : null);
  return (
    <section aria-label={t("dieTable.title")}>
      <Typography.Title level={2} style={{ fontSize: 16 }}>
        {t("dieTable.title")} <Tag>{rows.length === dies.length ? format.number(dies.length) : t("dieTable.filtered", { shown: rows.length, all: dies.length })}</Tag>
      </Typography.Title>
      <Table<TopologyNode>
        size="small"
        rowKey="id"
        dataSource={shown}
        pagination={{ current: place.page, pageSize, pageSizeOptions: PAGE_SIZES, showSizeChanger: true, hideOnSinglePage: pageSize === PAGE_SIZE }}
        onChange={(pagination, filters, sorter, { action }) => {
          // New rows (another order or filter) start from the first page, or the selected die's (see `place`).
          if (action === "sort") {
            const sorted = Array.isArray(sorter) ? sorter[0] : sorter;
            const key = sorted?.columnKey;
            setOrder(sorted?.order && (key === "npuIndex" || key === "deviceId") ? { key, order: sorted.order } : FIRST_ORDER);
          } else if (action === "filter") {
            setHealth((filters.health as Health[] | null | undefined) ?? null);
          } else {
            if (pagination.pageSize && pagination.pageSize !== pageSize) onPageSize(pagination.pageSize);
            setPlace((now) => ({ ...now, page: pagination.current ?? 1 }));
          }
        }}
        // Empty only for the first commit (see useRowsAfterMount): no "No data" for that moment.
        locale={shown.length === 0 && rows.length > 0 ? { emptyText: " " } : undefined}
        rowClassName={(row) => (nodeKey(row) === selectedKey ? "ant-table-row-selected" : "")}
        onRow={(row) => ({ onClick: () => onSelect(row) })}
        columns={[
          // Sorted and filtered in orderDies (`sorter: true` and no onFilter: antd leaves the rows as they come).
          { title: t("fields.npuIndex"), key: "npuIndex", dataIndex: "npuIndex", sorter: true, sortOrder: sortOrder("npuIndex") },
          { title: t("fields.deviceId"), key: "deviceId", dataIndex: "deviceId", sorter: true, sortOrder: sortOrder("deviceId") },
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
          {
            title: t("fields.health"),
            key: "health",
            dataIndex: "health",
            filters: healthStates.map((state) => ({ text: t(`health.${state}`), value: state })),
            filteredValue: health,
            render: (h: TopologyNode["health"]) => t(`health.${h}`),
          },
        ]}
      />
    </section>
  );
});
