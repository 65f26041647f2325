"use client";

import { Alert, Button, Empty, Space, Typography } from "antd";
import { useTranslations } from "next-intl";
import { useClusters } from "@/components/clusters/use-clusters";
import { ClusterCard } from "@/components/overview/cluster-card";
import { CountsRow, sumCounts } from "@/components/overview/counts-row";
import { PageHeading } from "@/components/primitives/page-heading";

export function OverviewClient({ selectedSlug }: { selectedSlug: string | undefined }) {
  const t = useTranslations("overview");
  const query = useClusters();
  const clusters = (query.data ?? []).filter((c) => !selectedSlug || c.slug === selectedSlug);

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <PageHeading title={t("title")} subtitle={t("subtitle")} />
      {query.isError && (
        <Alert
          type="error"
          showIcon
          title={t("loadError")}
          description={query.error.message}
          action={<Button onClick={() => query.refetch()}>{t("retry")}</Button>}
        />
      )}
      {clusters.length === 0 ? (
        <Empty description={<Typography.Text>{t("empty")}</Typography.Text>} />
      ) : (
        <>
          {!selectedSlug && clusters.length > 1 && (
            <section aria-labelledby="overview-totals">
              <Typography.Title level={2} id="overview-totals" style={{ fontSize: 16 }}>
                {t("totals")}
              </Typography.Title>
              <CountsRow counts={{ clusters: clusters.length, ...sumCounts(clusters) }} />
            </section>
          )}
          {clusters.map((cluster) => (
            <ClusterCard key={cluster.id} cluster={cluster} />
          ))}
        </>
      )}
    </Space>
  );
}
