"use client";

import { Card, Descriptions } from "antd";
import { useTranslations } from "next-intl";
import { networkFaultDefaults as rules } from "@/lib/faults/escalation-defaults";

export function EscalationRules() {
  const t = useTranslations("faults");
  return (
    <section aria-labelledby="escalation-rules">
      <Card title={<h2 id="escalation-rules" style={{ fontSize: 16, margin: 0 }}>{t("escalationTitle")}</h2>}>
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label={t("shortFault")}>
            {t("shortFaultRule", { seconds: rules.faultTimeoutSeconds })}
          </Descriptions.Item>
          <Descriptions.Item label={t("longFault")}>
            {t("longFaultRule", { seconds: rules.faultTimeoutSeconds, level: rules.escalatedHandling })}
          </Descriptions.Item>
          <Descriptions.Item label={t("recovery")}>
            {t("recoveryRule", { seconds: rules.recoverTimeoutSeconds })}
          </Descriptions.Item>
          <Descriptions.Item label={t("frequency")}>
            {t("frequencyRule", {
              times: rules.frequency.times,
              hours: rules.frequency.windowSeconds / 3600,
              level: rules.frequency.handling,
              releaseHours: rules.frequency.releaseAfterSeconds / 3600,
            })}
          </Descriptions.Item>
          <Descriptions.Item label={t("detection")}>
            {t("detectionRule", {
              seconds: rules.gatewayProbeIntervalSeconds,
              slow: rules.stallWithoutWatchdogMinutes,
              fast: rules.stallWithWatchdogMinutes,
            })}
          </Descriptions.Item>
        </Descriptions>
      </Card>
    </section>
  );
}
