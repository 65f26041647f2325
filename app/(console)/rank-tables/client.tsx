"use client";

import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Empty, Input, Select, Space, Tag } from "antd";
import { Table } from "@/components/primitives/table";
import { Link } from "@/components/primitives/link";
import { useFormatter, useTranslations } from "next-intl";
import { useMemo } from "react";
import { useCan } from "@/components/auth/current-user";
import { PageHeading } from "@/components/primitives/page-heading";
import { useUrlState } from "@/components/primitives/use-url-state";
import { deleteRankTable, listRankTables, rankTablesKey } from "@/components/rank-tables/api";
import type { RankTableListItem } from "@/db/schema/rank-table/validation";
import { rankTableListQuery, rankTableListSearchParams } from "@/lib/rank-table-workspace/url";

/** The cluster filter: every table, the tables linked to one cluster (its id), or those linked to none. */
type ClusterFilter = "all" | "none" | number;

export function RankTableListClient({ initial }: { initial: RankTableListItem[] }) {
  const t = useTranslations("rankTables.list");
  const tRoot = useTranslations("rankTables");
  const format = useFormatter();
  const { modal, message } = App.useApp();
  const canWrite = useCan("write");
  const queryClient = useQueryClient();
  const [state, navigate] = useUrlState(rankTableListSearchParams, rankTableListQuery);
  const filter = state.q ?? "";
  const clusterFilter: ClusterFilter = state.linked ?? "all";
  // Typing replaces the entry; a pasted link opens the same filtered list.
  const setFilter = (text: string) => navigate({ q: text || undefined }, "replace");
  const setClusterFilter = (value: ClusterFilter) => navigate({ linked: value === "all" ? undefined : value }, "replace");
  const tables = useQuery({ queryKey: rankTablesKey, queryFn: listRankTables, initialData: initial });
  const remove = useMutation({
    mutationFn: (id: number) => deleteRankTable(id),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: rankTablesKey });
      const before = queryClient.getQueryData<RankTableListItem[]>(rankTablesKey);
      queryClient.setQueryData<RankTableListItem[]>(rankTablesKey, (items) => items?.filter((item) => item.id !== id));
      return { before };
    },
    onError: (error, _id, context) => {
      queryClient.setQueryData(rankTablesKey, context?.before);
      message.error(error.message);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: rankTablesKey }),
  });
  // The clusters the saved tables are linked to, by name.
  const linkedClusters = useMemo(() => {
    const byId = new Map<number, string>();
    for (const item of tables.data) if (item.clusterId !== null) byId.set(item.clusterId, item.clusterName ?? `#${item.clusterId}`);
    return [...byId].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
  }, [tables.data]);
  const shown = tables.data.filter(
    (item) => item.name.toLowerCase().includes(filter.trim().toLowerCase()) && (clusterFilter === "all" || (clusterFilter === "none" ? item.clusterId === null : item.clusterId === clusterFilter)),
  );

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <PageHeading
        title={tRoot("title")}
        subtitle={tRoot("subtitle")}
        extra={
          <Link href="/rank-tables/new">
            <Button type="primary" icon={<PlusOutlined />}>
              {canWrite ? t("new") : t("check")}
            </Button>
          </Link>
        }
      />
      {tables.isError && <Alert type="error" showIcon title={t("loadFailed")} description={tables.error.message} action={<Button onClick={() => tables.refetch()}>{t("retry")}</Button>} />}
      <Space>
        <Input.Search aria-label={t("filter")} placeholder={t("filter")} allowClear value={filter} onChange={(event) => setFilter(event.target.value)} style={{ width: 280 }} />
        <Select<ClusterFilter>
          aria-label={t("clusterFilter")}
          value={clusterFilter}
          onChange={setClusterFilter}
          style={{ width: 240 }}
          options={[{ value: "all", label: t("allClusters") }, ...linkedClusters, { value: "none", label: t("noCluster") }]}
        />
        <span>{t("count", { shown: shown.length, total: tables.data.length })}</span>
      </Space>
      <Table<RankTableListItem>
        aria-label={t("label")}
        size="small"
        rowKey="id"
        dataSource={shown}
        pagination={shown.length > 50 ? { pageSize: 50 } : false}
        locale={{ emptyText: <Empty description={canWrite ? t("emptyEditor") : t("emptyViewer")} /> }}
        columns={[
          { title: t("name"), dataIndex: "name", sorter: (a, b) => a.name.localeCompare(b.name), render: (value: string, row) => <Link href={`/rank-tables/${row.id}`}>{value}</Link> },
          {
            title: t("status"),
            key: "status",
            width: 220,
            sorter: (a, b) => a.summary.errors - b.summary.errors,
            render: (_, row) =>
              row.summary.errors ? (
                <Tag color="error">✖ {tRoot("errors", { count: row.summary.errors })}</Tag>
              ) : row.summary.warnings ? (
                <Tag color="warning">▲ {tRoot("warnings", { count: row.summary.warnings })}</Tag>
              ) : (
                <Tag color="success">✔ {t("valid")}</Tag>
              ),
          },
          { title: t("size"), key: "size", width: 200, render: (_, row) => t("sizeValue", row.summary.stats) },
          {
            title: t("cluster"),
            dataIndex: "clusterName",
            width: 200,
            sorter: (a, b) => (a.clusterName ?? "").localeCompare(b.clusterName ?? ""),
            render: (value: string | null) => value ?? <span title={t("noCluster")}>—</span>,
          },
          { title: t("revision"), dataIndex: "revision", width: 90, render: (value: number) => `#${value}` },
          {
            title: t("updated"),
            dataIndex: "updatedAt",
            width: 200,
            defaultSortOrder: "descend",
            sorter: (a, b) => a.updatedAt.localeCompare(b.updatedAt),
            render: (value: string, row) => (
              <span title={new Date(value).toISOString()}>
                {format.dateTime(new Date(value), { dateStyle: "medium", timeStyle: "short" })} · {row.updatedBy ?? "—"}
              </span>
            ),
          },
          ...(canWrite
            ? [
                {
                  title: "",
                  key: "actions",
                  width: 60,
                  render: (_: unknown, row: RankTableListItem) => (
                    <Button
                      type="text"
                      danger
                      aria-label={t("delete", { name: row.name })}
                      icon={<DeleteOutlined />}
                      onClick={() =>
                        modal.confirm({
                          title: t("delete", { name: row.name }),
                          content: t("deleteWarning", { count: row.revision }),
                          okText: t("deleteOk"),
                          okButtonProps: { danger: true },
                          onOk: () => remove.mutateAsync(row.id),
                        })
                      }
                    />
                  ),
                },
              ]
            : []),
        ]}
      />
    </Space>
  );
}
