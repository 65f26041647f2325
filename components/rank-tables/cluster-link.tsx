"use client";

import { ClusterOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { App, Select, Space, Tooltip, Typography } from "antd";
import { useTranslations } from "next-intl";
import { useClusters } from "@/components/clusters/use-clusters";
import { linkRankTable, rankTablesKey } from "./api";

/** The inventory cluster a rank table is for, if any. */
export interface ClusterLinkValue {
  clusterId: number | null;
  clusterName: string | null;
}

interface Props {
  /** The saved table, whose link is changed at once (no new revision); undefined for a new table, whose link is sent with its first save. */
  tableId: number | undefined;
  value: ClusterLinkValue;
  onChange: (value: ClusterLinkValue) => void;
  readOnly: boolean;
}

/** "Linked cluster": shows the table's cluster of the inventory and lets an editor link, change or unlink it. */
export function ClusterLink({ tableId, value, onChange, readOnly }: Props) {
  const t = useTranslations("rankTables.link");
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const clusters = useClusters({ enabled: !readOnly });
  const link = useMutation({
    mutationFn: ({ id, clusterId }: { id: number; clusterId: number | null }) => linkRankTable(id, clusterId),
    onSuccess: (detail) => {
      onChange({ clusterId: detail.clusterId, clusterName: detail.clusterName });
      message.success(detail.clusterName === null ? t("unlinked") : t("linked", { name: detail.clusterName }));
      void queryClient.invalidateQueries({ queryKey: rankTablesKey, exact: true });
    },
    onError: (error) => message.error(t("failed", { reason: error.message })),
  });

  const label = (
    <Typography.Text type="secondary">
      <ClusterOutlined /> {t("label")}
    </Typography.Text>
  );
  if (readOnly) {
    // A viewer checking a file that is not saved: there is nothing to be linked.
    if (tableId === undefined) return null;
    return (
      <Space size={4}>
        {label}
        <Typography.Text aria-label={t("label")}>{value.clusterName ?? t("none")}</Typography.Text>
      </Space>
    );
  }
  const options = (clusters.data ?? []).map((cluster) => ({ value: cluster.id, label: cluster.name }));
  // Until the inventory answers (or if the cluster is gone from it), the linked cluster is still shown by name.
  if (value.clusterId !== null && !options.some((option) => option.value === value.clusterId)) options.unshift({ value: value.clusterId, label: value.clusterName ?? `#${value.clusterId}` });

  const choose = (clusterId: number | undefined) => {
    const next = clusterId ?? null;
    if (next === value.clusterId) return;
    if (tableId !== undefined) link.mutate({ id: tableId, clusterId: next });
    else onChange({ clusterId: next, clusterName: options.find((option) => option.value === next)?.label ?? null });
  };

  return (
    <Tooltip title={tableId === undefined ? t("newHint") : t("savedHint")}>
      <Space size={4}>
        {label}
        <Select<number>
          aria-label={t("label")}
          placeholder={t("none")}
          allowClear
          loading={clusters.isPending || link.isPending}
          disabled={link.isPending}
          style={{ width: 240 }}
          value={value.clusterId ?? undefined}
          options={options}
          onChange={choose}
          notFoundContent={clusters.isError ? t("loadFailed", { reason: clusters.error.message }) : undefined}
        />
      </Space>
    </Tooltip>
  );
}
