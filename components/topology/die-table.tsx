"use client";

import { Table, Tag, Typography } from "antd";
import { useFormatter, useTranslations } from "next-intl";
import type { TopologyNode } from "@/lib/topology/model";
import { nodeKey } from "./chart-option";

/** The server view's table of its dies, with the rank each holds in the chosen rank table. */
export function DieTable({
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
  return (
    <section aria-label={t("dieTable.title")}>
      <Typography.Title level={2} style={{ fontSize: 16 }}>
        {t("dieTable.title")} <Tag>{format.number(dies.length)}</Tag>
      </Typography.Title>
      <Table<TopologyNode>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={dies}
        rowClassName={(row) => (nodeKey(row) === selectedKey ? "ant-table-row-selected" : "")}
        onRow={(row) => ({ onClick: () => onSelect(row) })}
        columns={[
          { title: t("fields.npuIndex"), dataIndex: "npuIndex", sorter: (a, b) => (a.npuIndex ?? 0) - (b.npuIndex ?? 0) },
          { title: t("fields.deviceId"), dataIndex: "deviceId", sorter: (a, b) => (a.deviceId ?? 0) - (b.deviceId ?? 0), defaultSortOrder: "ascend" },
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
}
