"use client";

import { ArrowLeftOutlined } from "@ant-design/icons";
import { Button, Empty, Space } from "antd";
import { Link } from "@/components/primitives/link";
import { useTranslations } from "next-intl";
import { FaultSettingsForm } from "@/components/faults/settings-form";
import { PageHeading } from "@/components/primitives/page-heading";

export function FaultSettingsClient({ cluster, canEdit }: { cluster: { slug: string; name: string } | null; canEdit: boolean }) {
  const t = useTranslations("faults.settings");
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <PageHeading
        title={t("title")}
        subtitle={cluster ? t("subtitle", { cluster: cluster.name }) : undefined}
        extra={
          <Link href={cluster ? `/faults?cluster=${cluster.slug}&tab=reference` : "/faults"}>
            <Button icon={<ArrowLeftOutlined />}>{t("back")}</Button>
          </Link>
        }
      />
      {cluster ? <FaultSettingsForm cluster={cluster.slug} canEdit={canEdit} /> : <Empty description={t("noCluster")} />}
    </Space>
  );
}
