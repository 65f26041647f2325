"use client";

import { Card } from "antd";
import { Table } from "@/components/primitives/table";
import { useTranslations } from "next-intl";
import { HealthTag } from "@/components/primitives/health-tag";
import { faultLevelInfo, faultLevels, type FaultLevelInfo } from "@/lib/faults/levels";
import { useBilingual } from "./use-bilingual";

export function FaultLevelsTable() {
  const t = useTranslations("faults");
  const pick = useBilingual();
  return (
    <section aria-labelledby="fault-levels">
      <Card title={<h2 id="fault-levels" style={{ fontSize: 16, margin: 0 }}>{t("levelsTitle")}</h2>}>
        <Table<FaultLevelInfo>
          size="small"
          pagination={false}
          rowKey="level"
          dataSource={faultLevels.map((level) => faultLevelInfo[level])}
          columns={[
            {
              title: t("level"),
              dataIndex: "level",
              width: 220,
              render: (level: string, info) => <HealthTag tone={info.tone}>{level}</HealthTag>,
            },
            { title: t("effect"), key: "effect", render: (_, info) => pick(info.effect) },
            { title: t("handling"), key: "handling", render: (_, info) => pick(info.handling) },
          ]}
        />
      </Card>
    </section>
  );
}
