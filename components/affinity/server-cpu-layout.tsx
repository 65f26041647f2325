"use client";

import { useQuery } from "@tanstack/react-query";
import { Flex, Skeleton, Tag, Typography } from "antd";
import { Link } from "@/components/primitives/link";
import { useTranslations } from "next-intl";
import { affinityQuery } from "@/lib/affinity/url";
import { affinityKeys, fetchServerLayout } from "./api";

/** The server's stored CPU layout in the topology's details: NUMA nodes, CPUs, and which node each NPU is on. */
export function ServerCpuLayout({ cluster, serverId }: { cluster: string; serverId: string }) {
  const t = useTranslations("affinity");
  const query = useQuery({
    queryKey: affinityKeys.serverLayout(cluster, serverId),
    queryFn: ({ signal }) => fetchServerLayout(cluster, serverId, signal),
  });
  const layout = query.data?.layout;
  return (
    <section aria-label={t("serverLayout")}>
      <Typography.Title level={3} style={{ fontSize: 14 }}>
        {t("serverLayout")}
      </Typography.Title>
      {query.isPending ? (
        <Skeleton active paragraph={{ rows: 1 }} />
      ) : query.isError ? (
        <Typography.Text type="danger">{t("failed", { message: query.error.message })}</Typography.Text>
      ) : !layout ? (
        <Typography.Text type="secondary">
          {t("serverLayoutNone")} <Link href={`/affinity?${affinityQuery({ cluster, server: serverId })}`}>{t("title")}</Link>
        </Typography.Text>
      ) : (
        <Flex vertical gap={4}>
          <Typography.Text>{t("serverLayoutSummary", { cpus: layout.onlineCpus.length, nodes: layout.numaNodes.length, npus: layout.npus.length })}</Typography.Text>
          <Flex gap={4} wrap>
            {layout.npus.map((npu) => (
              <Tag key={npu.id}>{t("npuOnNode", { npu: npu.id, node: npu.numaNode ?? "?" })}</Tag>
            ))}
          </Flex>
        </Flex>
      )}
    </section>
  );
}
