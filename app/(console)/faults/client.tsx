"use client";

import { Space } from "antd";
import { useTranslations } from "next-intl";
import { EscalationRules } from "@/components/faults/escalation-rules";
import { FaultLevelsTable } from "@/components/faults/fault-levels-table";
import { HcclPhasesTable } from "@/components/faults/hccl-phases-table";
import { PageHeading } from "@/components/primitives/page-heading";

export function FaultsClient() {
  const t = useTranslations("faults");
  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <PageHeading title={t("title")} subtitle={t("subtitle")} />
      <EscalationRules />
      <FaultLevelsTable />
      <HcclPhasesTable />
    </Space>
  );
}
