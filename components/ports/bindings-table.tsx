"use client";

import { CloseCircleOutlined } from "@ant-design/icons";
import { Tag } from "antd";
import { Table } from "@/components/primitives/table";
import { useTranslations } from "next-intl";
import { formatRange } from "@/lib/ports/ranges";
import type { PortHostRow } from "@/lib/ports/report";

type Binding = PortHostRow["bindings"][number];

const ranksText = (ranks: readonly number[]) => (ranks.length > 6 ? `${ranks.slice(0, 5).join(", ")} … (${ranks.length})` : ranks.join(", "));

/**
 * A page of bindings from the server (the job page: `GET /api/v1/jobs/{id}/ports/bindings`): the table shows it as
 * given (the server's order, so no column sorts), and its pager and conflict filter ask for another page.
 */
export interface RemoteBindings {
  total: number;
  /** 1-based. */
  page: number;
  pageSize: number;
  loading: boolean;
  conflict: boolean | undefined;
  onChange: (page: number, conflict: boolean | undefined) => void;
}

/**
 * Port bindings: (host,) (job,) what binds it (default or set), ports, plane and scope, ranks, conflict. The ports
 * page's host drawer shows the jobs of one host; the job page the hosts of one job, a page at a time (`remote`).
 */
export function BindingsTable({ bindings, label, show = "job", remote }: { bindings: readonly Binding[]; label: string; show?: "job" | "host"; remote?: RemoteBindings }) {
  const t = useTranslations("ports");
  const sorter = <T,>(compare: (a: T, b: T) => number) => (remote ? undefined : compare);
  const offset = remote ? (remote.page - 1) * remote.pageSize : 0;
  return (
    <Table<Binding & { key: number }>
      size="small"
      aria-label={label}
      dataSource={bindings.map((b, i) => ({ ...b, key: offset + i }))}
      loading={remote?.loading}
      pagination={
        remote
          ? { current: remote.page, pageSize: remote.pageSize, total: remote.total, hideOnSinglePage: true, showSizeChanger: false }
          : { pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }
      }
      onChange={
        remote
          ? (pagination, filters) => {
              const [value] = (filters.conflict ?? []) as boolean[];
              const conflict = value === undefined ? undefined : value;
              remote.onChange(conflict === remote.conflict ? (pagination.current ?? 1) : 1, conflict);
            }
          : undefined
      }
      columns={[
        show === "job"
          ? { title: t("columns.job"), dataIndex: "jobName", sorter: sorter<Binding>((a, b) => a.jobName.localeCompare(b.jobName)) }
          : { title: t("columns.host"), dataIndex: "serverId", sorter: sorter<Binding>((a, b) => a.serverId.localeCompare(b.serverId)) },
        { title: t("columns.source"), dataIndex: "source", render: (s: string, b) => (b.defaulted ? `${s} ${t("defaulted")}` : s) },
        { title: t("columns.ports"), key: "ports", sorter: sorter<Binding>((a, b) => a.ports.from - b.ports.from), render: (_, b) => formatRange(b.ports) },
        { title: t("columns.plane"), key: "plane", render: (_, b) => `${t(`planes.${b.plane}`)} · ${b.scope.replace(/^(host|nic):/, "")}` },
        { title: t("columns.ranks"), key: "ranks", render: (_, b) => ranksText(b.ranks) },
        {
          title: t("columns.state"),
          key: "conflict",
          filters: [
            { text: t("conflict"), value: true },
            { text: t("free"), value: false },
          ],
          ...(remote ? { filterMultiple: false, filteredValue: remote.conflict === undefined ? null : [remote.conflict] } : { onFilter: (value: unknown, b: Binding) => b.conflict === value }),
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
