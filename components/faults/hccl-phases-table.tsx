"use client";

import { Card, Tag } from "antd";
import { Table } from "@/components/primitives/table";
import { useTranslations } from "next-intl";
import { hcclPhases, type HcclPhase } from "@/lib/faults/hccl-phases";
import { useBilingual } from "./use-bilingual";

export function HcclPhasesTable() {
  const t = useTranslations("faults");
  const pick = useBilingual();
  return (
    <section aria-labelledby="hccl-phases">
      <Card title={<h2 id="hccl-phases" style={{ fontSize: 16, margin: 0 }}>{t("phasesTitle")}</h2>}>
        <Table<HcclPhase>
          size="small"
          pagination={false}
          rowKey="id"
          dataSource={hcclPhases}
          columns={[
            { title: t("phase"), key: "name", width: 180, render: (_, phase) => pick(phase.name) },
            { title: t("when"), key: "when", width: 180, render: (_, phase) => pick(phase.when) },
            { title: t("code"), dataIndex: "errorCode", width: 90, render: (code: string) => <Tag>{code}</Tag> },
            { title: t("symptom"), key: "symptom", render: (_, phase) => pick(phase.symptom) },
            { title: t("lookFirst"), key: "lookFirst", render: (_, phase) => pick(phase.lookFirst) },
          ]}
        />
      </Card>
    </section>
  );
}
