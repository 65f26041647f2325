"use client";

import { CloseCircleOutlined } from "@ant-design/icons";
import { Table, Tag } from "antd";
import { useTranslations } from "next-intl";
import { formatRange } from "@/lib/ports/ranges";
import type { PortHostRow } from "@/lib/ports/report";

type Binding = PortHostRow["bindings"][number];

const ranksText = (ranks: readonly number[]) => (ranks.length > 6 ? `${ranks.slice(0, 5).join(", ")} … (${ranks.length})` : ranks.join(", "));

/**
 * Port bindings: (host,) (job,) what binds it (default or set), ports, plane and scope, ranks, conflict. The ports
 * page's host drawer shows the jobs of one host; the job page the hosts of one job.
 */
export function BindingsTable({ bindings, label, show = "job" }: { bindings: readonly Binding[]; label: string; show?: "job" | "host" }) {
  const t = useTranslations("ports");
  return (
    <Table<Binding & { key: number }>
      size="small"
      aria-label={label}
      dataSource={bindings.map((b, key) => ({ ...b, key }))}
      pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
      columns={[
        show === "job"
          ? { title: t("columns.job"), dataIndex: "jobName", sorter: (a, b) => a.jobName.localeCompare(b.jobName) }
          : { title: t("columns.host"), dataIndex: "serverId", sorter: (a, b) => a.serverId.localeCompare(b.serverId) },
        { title: t("columns.source"), dataIndex: "source", render: (s: string, b) => (b.defaulted ? `${s} ${t("defaulted")}` : s) },
        { title: t("columns.ports"), key: "ports", sorter: (a, b) => a.ports.from - b.ports.from, render: (_, b) => formatRange(b.ports) },
        { title: t("columns.plane"), key: "plane", render: (_, b) => `${t(`planes.${b.plane}`)} · ${b.scope.replace(/^(host|nic):/, "")}` },
        { title: t("columns.ranks"), key: "ranks", render: (_, b) => ranksText(b.ranks) },
        {
          title: t("columns.state"),
          key: "conflict",
          filters: [
            { text: t("conflict"), value: true },
            { text: t("free"), value: false },
          ],
          onFilter: (value, b) => b.conflict === value,
          render: (_, b) =>
            b.conflict ? (
              <Tag color="error" icon={<CloseCircleOutlined />}>
                {t("conflict")}
              </Tag>
            ) : (
              <Tag color="success">{t("free")}</Tag>
            ),
        },
      ]}
    />
  );
}
