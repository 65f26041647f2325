"use client";

import { ApartmentOutlined } from "@ant-design/icons";
import { Card, Tag, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import { Link } from "@/components/primitives/link";
import { useFormatter, useTranslations } from "next-intl";
import type { ClusterSummary } from "@/db/schema/cluster/validation";
import { CountsRow } from "./counts-row";

export function ClusterCard({ cluster }: { cluster: ClusterSummary }) {
  const t = useTranslations("overview");
  const format = useFormatter();
  const headingId = `cluster-${cluster.slug}`;
  const models = Object.entries(cluster.serversByModel).map(([model, count]) => ({ model, count }));
  return (
    <section aria-labelledby={headingId}>
      <Card
        title={
          <span style={{ display: "inline-flex", gap: 8, alignItems: "center" }}>
            <Typography.Title level={2} id={headingId} style={{ fontSize: 16, margin: 0 }}>
              {cluster.name}
            </Typography.Title>
            <Tag color={cluster.mode === "super-pod" ? "purple" : "blue"}>
              {t(cluster.mode === "super-pod" ? "modeSuperPod" : "modeAiServer")}
            </Tag>
          </span>
        }
        extra={
          <Link href={`/topology?cluster=${cluster.slug}`}>
            <ApartmentOutlined /> {t("openTopology")}
          </Link>
        }
      >
        <CountsRow counts={cluster} />
        <Table
          style={{ marginTop: 16, maxWidth: 480 }}
          size="small"
          pagination={false}
          rowKey="model"
          title={() => t("byModel")}
          dataSource={models}
          columns={[
            { title: t("model"), dataIndex: "model", sorter: (a, b) => a.model.localeCompare(b.model) },
            {
              title: t("count"),
              dataIndex: "count",
              align: "right",
              sorter: (a, b) => a.count - b.count,
              render: (value: number) => format.number(value),
            },
          ]}
        />
      </Card>
    </section>
  );
}
