"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Col, Empty, Row, Skeleton, Typography } from "antd";
import { useFormatter, useLocale, useTranslations } from "next-intl";
import { useDeferredValue, useMemo, type ReactNode } from "react";
import type { FaultKind } from "@/lib/faults/model";
import { hourMs, type FaultReport, type ReportBucket } from "@/lib/faults/report";
import { reportSections, type ReportSection } from "@/lib/faults/report-url";
import { reportSummary } from "@/lib/faults/report-summary";
import { faultKeys, fetchReport } from "../api";
import { useDuration } from "../format";
import { availabilityChart, eventsChart, lostChart, mttrChart, offendersChart, type ChartText } from "./chart-options";
import { KeyFigures } from "./key-figures";
import { JobsTable, OffendersTable } from "./tables";
import { TrendChart } from "./trend-chart";

/** The report's data under its one query key (the Trends tab and the report page share it). */
export function useFaultReport(cluster: string, from: number, to: number, compare: boolean) {
  // A window that follows the clock changes its key every few seconds: the last report stays on screen meanwhile.
  return useQuery({
    queryKey: faultKeys.report(cluster, from, to, compare),
    queryFn: ({ signal }) => fetchReport(cluster, from, to, compare, signal),
    placeholderData: keepPreviousData,
  });
}

/** The sections drawn as one time-series chart each, in page order. */
const trendSections = ["events", "availability", "mttr", "lost"] as const;

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Card size="small" title={title} className="report-section report-avoid-break" data-testid={testId}>
      {children}
    </Card>
  );
}

/**
 * The report's sections: summary sentence, key figures with their changes, the trend charts (events, availability,
 * MTTR, die-hours lost), top offenders and per-job time lost. `sections` chooses which (all when empty).
 */
export function ReportView({ report, sections }: { report: FaultReport; sections: readonly ReportSection[] }) {
  const t = useTranslations("faults.report");
  const ts = useTranslations("faults.stats");
  const tk = useTranslations("faults.kinds");
  const format = useFormatter();
  const locale = useLocale();
  const duration = useDuration();
  const shown = new Set(sections.length ? sections : reportSections);
  const grain = t(`grain.${report.grainMs === hourMs ? "hour" : "day"}`);
  const slug = report.cluster.slug;

  const text = useMemo<ChartText>(
    () => ({
      // Daily buckets are UTC days: labelled in UTC so a day is never shown as the one before.
      bucketLabel: (b: ReportBucket) =>
        report.grainMs === hourMs
          ? format.dateTime(new Date(b.at), { month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" })
          : format.dateTime(new Date(b.at), { month: "2-digit", day: "2-digit", timeZone: "UTC" }),
      kind: (kind: FaultKind) => tk(kind),
      pod: (id: string) => (id ? `${ts("superPod")} ${id}` : ts("noSuperPod")),
      otherPods: (count: number) => ts("otherPods", { count }),
      number: (n: number, digits = 0) => format.number(n, { maximumFractionDigits: digits }),
      duration,
      current: t("offenders.events"),
      previous: t("offenders.previous"),
    }),
    [report.grainMs, format, tk, ts, t, duration],
  );
  const charts = useMemo(
    () => ({
      events: eventsChart(report.series, text),
      availability: availabilityChart(report, text),
      mttr: mttrChart(report.series, text),
      lost: lostChart(report.series, text),
      servers: offendersChart(report, report.topServers, (o) => ({ target: o.key }), text),
      dies: offendersChart(report, report.topDies, (o) => ({ target: o.key }), text),
      codes: offendersChart(report, report.topCodes, (o) => ({ code: o.key }), text),
    }),
    [report, text],
  );

  const offenderLists = [
    { key: "servers", title: t("offenders.servers"), list: report.topServers, select: (o: { key: string }) => ({ target: o.key }) },
    { key: "dies", title: t("offenders.dies"), list: report.topDies, select: (o: { key: string }) => ({ target: o.key }) },
    { key: "codes", title: t("offenders.codes"), list: report.topCodes, select: (o: { key: string }) => ({ code: o.key }) },
  ] as const;

  return (
    <Row gutter={[16, 16]} data-testid="fault-report">
      {shown.has("summary") && (
        <Col span={24}>
          <Section title={t("section.summary")} testId="report-summary">
            <Typography.Paragraph style={{ fontSize: 15, margin: 0 }}>{reportSummary(report, locale === "zh-CN" ? "zh-CN" : "en", duration)}</Typography.Paragraph>
          </Section>
        </Col>
      )}
      {shown.has("deltas") && (
        <Col span={24}>
          <KeyFigures report={report} />
        </Col>
      )}
      {trendSections
        .filter((key) => shown.has(key))
        .map((key) => (
          <Col key={key} xs={24} xl={12}>
            <Section title={t(`section.${key}`, { grain })}>
              <TrendChart chart={charts[key]} cluster={slug} label={t(`section.${key}`, { grain })} testId={`chart-${key}`} />
            </Section>
          </Col>
        ))}
      {shown.has("offenders") &&
        offenderLists.map((o) => (
          <Col key={o.key} xs={24} xl={8}>
            <Section title={`${t("section.offenders")}: ${o.title}`} testId={`report-offenders-${o.key}`}>
              {o.list.length > 0 && <TrendChart chart={charts[o.key]} cluster={slug} label={o.title} height={Math.max(120, 40 + o.list.length * 26)} testId={`chart-${o.key}`} />}
              <OffendersTable report={report} offenders={o.list} select={o.select} testId={`table-${o.key}`} />
            </Section>
          </Col>
        ))}
      {shown.has("jobs") && (
        <Col span={24}>
          <Section title={t("section.jobs")}>
            <JobsTable report={report} />
          </Section>
        </Col>
      )}
      <Col span={24} className="report-no-print">
        <Typography.Text type="secondary">{t("chart.hint")}</Typography.Text>
      </Col>
    </Row>
  );
}

/** The report of a period, loaded: skeleton while loading, the error with a retry, what to do when it is empty. */
export function LoadedReport({ cluster, from, to, compare, sections }: { cluster: string; from: number; to: number; compare: boolean; sections: readonly ReportSection[] }) {
  const t = useTranslations("faults.report");
  const query = useFaultReport(cluster, from, to, compare);
  // Rendered from a deferred value, not in the query's notification task, which renders synchronously: the report's
  // key figures, tables and chart containers were a commit of 60-76 ms at 524,288 NPUs (issue 21).
  const report = useDeferredValue(query.data);
  if (query.isError)
    return <Alert type="error" showIcon title={t("loadError")} description={(query.error as Error).message} action={<Button onClick={() => void query.refetch()}>{t("retry")}</Button>} />;
  if (!report) return <Skeleton active paragraph={{ rows: 12 }} />;
  if (report.current.events === 0 && (report.previous?.events ?? 0) === 0) return <Empty description={t("empty")} />;
  return <ReportView report={report} sections={sections} />;
}
