"use client";

import { SettingOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Descriptions } from "antd";
import { Link } from "@/components/primitives/link";
import { useTranslations } from "next-intl";
import { networkFaultDefaults } from "@/lib/faults/escalation-defaults";
import { defaultEscalationSettings } from "@/lib/faults/escalation";
import { faultKeys, fetchFaultSettings } from "./api";

/**
 * The escalation rules with the values in force for the cluster: its settings once changed, MindCluster's defaults
 * until then (also while they load). Shows the first long-fault and repeated-fault rule, as the seed states them.
 */
export function EscalationRules({ cluster }: { cluster: string }) {
  const t = useTranslations("faults");
  const { data } = useQuery({ queryKey: faultKeys.settings(cluster), queryFn: ({ signal }) => fetchFaultSettings(cluster, signal) });
  const escalation = data?.escalation ?? defaultEscalationSettings;
  const duration = escalation.duration[0];
  const frequency = escalation.frequency[0];
  return (
    <section aria-labelledby="escalation-rules">
      <Card
        title={
          <h2 id="escalation-rules" style={{ fontSize: 16, margin: 0 }}>
            {data?.customised ? t("escalationTitleCustomised") : t("escalationTitle")}
          </h2>
        }
        extra={
          <Link href={`/faults/settings?cluster=${cluster}`}>
            <Button size="small" icon={<SettingOutlined />}>
              {t("settings.open")}
            </Button>
          </Link>
        }
      >
        <Descriptions size="small" column={1} bordered>
          {duration ? (
            <>
              <Descriptions.Item label={t("shortFault")}>{t("shortFaultRule", { seconds: duration.faultTimeoutSeconds })}</Descriptions.Item>
              <Descriptions.Item label={t("longFault")}>{t("longFaultRule", { seconds: duration.faultTimeoutSeconds, level: duration.handling })}</Descriptions.Item>
              <Descriptions.Item label={t("recovery")}>{t("recoveryRule", { seconds: duration.recoverTimeoutSeconds })}</Descriptions.Item>
            </>
          ) : null}
          {frequency ? (
            <Descriptions.Item label={t("frequency")}>
              {t("frequencyRule", {
                times: frequency.times,
                hours: Math.round((frequency.windowSeconds / 3600) * 100) / 100,
                level: frequency.handling,
                releaseHours: Math.round((frequency.releaseSeconds / 3600) * 100) / 100,
              })}
            </Descriptions.Item>
          ) : null}
          <Descriptions.Item label={t("detection")}>
            {t("detectionRule", {
              seconds: networkFaultDefaults.gatewayProbeIntervalSeconds,
              slow: networkFaultDefaults.stallWithoutWatchdogMinutes,
              fast: networkFaultDefaults.stallWithWatchdogMinutes,
            })}
          </Descriptions.Item>
        </Descriptions>
      </Card>
    </section>
  );
}
