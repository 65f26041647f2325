"use client";

import { FileTextOutlined } from "@ant-design/icons";
import { Button, Space, Typography } from "antd";
import { Link } from "@/components/primitives/link";
import { useTranslations } from "next-intl";
import { reportQuery } from "@/lib/faults/report-url";
import { PeriodPresets } from "./period-presets";
import { LoadedReport } from "./report-view";

/** The faults page's Trends tab: the report's charts and comparisons for the page's window, and a link to print it. */
export function TrendsView({ cluster, from, to, onPeriod }: { cluster: string; from: number; to: number; onPeriod: (period: { from: number; to: number }) => void }) {
  const t = useTranslations("faults.report");
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }} data-testid="fault-trends">
      <Space wrap style={{ justifyContent: "space-between", width: "100%" }}>
        <Space wrap>
          <PeriodPresets from={from} to={to} onChange={onPeriod} />
          <Typography.Text type="secondary">{t("trendsSubtitle")}</Typography.Text>
        </Space>
        <Link href={`/faults/report?${reportQuery({ cluster, from, to })}`}>
          <Button icon={<FileTextOutlined />}>{t("open")}</Button>
        </Link>
      </Space>
      <LoadedReport cluster={cluster} from={from} to={to} compare sections={["deltas", "events", "availability", "mttr", "lost", "offenders", "jobs"]} />
    </Space>
  );
}
