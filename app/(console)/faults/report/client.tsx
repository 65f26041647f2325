"use client";

import { PrinterOutlined } from "@ant-design/icons";
import { Button, Empty, Select, Space, Switch, Typography } from "antd";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useFormatter, useTranslations } from "next-intl";
import { useMemo } from "react";
import { PeriodPresets } from "@/components/faults/report/period-presets";
import { LoadedReport } from "@/components/faults/report/report-view";
import { PageHeading } from "@/components/primitives/page-heading";
import { previousPeriod } from "@/lib/faults/report";
import { reportApiUrl, reportPeriod, reportQuery, reportSearchParams, reportSections, type ReportSearchParams } from "@/lib/faults/report-url";

/** The printable report: its period, comparison and sections live in the URL; the toolbar does not print. */
export function FaultReportClient({ cluster }: { cluster: string | null }) {
  const t = useTranslations("faults.report");
  const tf = useTranslations("faults");
  const format = useFormatter();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const state = useMemo(() => reportSearchParams.parse(Object.fromEntries(searchParams)), [searchParams]);
  // The server page always completes the URL; the fallback only keeps types honest.
  const { from, to } = reportPeriod(state, 0);
  const compare = state.compare === "previous";
  const navigate = (next: Partial<ReportSearchParams>) => router.push(`${pathname}?${reportQuery({ ...state, ...next })}`);
  if (!cluster) return <Empty description={tf("noClusters")} />;

  const when = (ms: number) => format.dateTime(new Date(ms), { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
  const utc = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");
  const before = previousPeriod(from, to);
  const values = { cluster, from: when(from), to: when(to), fromUtc: utc(from), toUtc: utc(to), previousFrom: when(before.from), previousTo: when(before.to) };
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }} className="report-page">
      <PageHeading title={t("title")} subtitle={compare ? t("generated", values) : t("generatedNoCompare", values)} />
      <Space wrap className="report-no-print" data-testid="report-toolbar">
        <PeriodPresets from={from} to={to} onChange={(period) => navigate(period)} />
        <Space size={6}>
          <Switch checked={compare} onChange={(on) => navigate({ compare: on ? "previous" : "none" })} aria-label={t("compare")} />
          <Typography.Text>{t("compare")}</Typography.Text>
        </Space>
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 280 }}
          placeholder={t("sections")}
          aria-label={t("sections")}
          value={state.sections}
          options={reportSections.map((s) => ({ value: s, label: t(`sectionName.${s}`) }))}
          onChange={(sections) => navigate({ sections })}
        />
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          {t("print")}
        </Button>
        <a href={reportApiUrl(cluster, from, to, compare, "csv")} download>
          {t("csv")}
        </a>
        <a href={reportApiUrl(cluster, from, to, compare)} target="_blank" rel="noreferrer">
          {t("json")}
        </a>
      </Space>
      <LoadedReport cluster={cluster} from={from} to={to} compare={compare} sections={state.sections} />
    </Space>
  );
}
