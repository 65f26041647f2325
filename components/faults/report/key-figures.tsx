"use client";

import { ArrowDownOutlined, ArrowUpOutlined, MinusOutlined } from "@ant-design/icons";
import { Card, Col, Row, Statistic, Typography, theme as antTheme } from "antd";
import { useFormatter, useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { improves, type Delta, type FaultReport } from "@/lib/faults/report";
import { signedNumber } from "@/lib/faults/report-summary";
import { useDuration } from "../format";

type Metric = "availabilityPts" | "events" | "mttrMs" | "lostDieMs";

/**
 * A change against the previous period: an arrow for its direction, a word and a colour for whether it is good news
 * (green better, red worse), so neither colour nor arrow alone carries the meaning.
 */
export function DeltaText({ metric, delta, children }: { metric: Metric; delta: Delta; children: ReactNode }) {
  const t = useTranslations("faults.report.kpi");
  const { token } = antTheme.useToken();
  const good = improves(metric, delta.change);
  const color = good === null ? token.colorTextSecondary : good ? token.colorSuccessText : token.colorErrorText;
  const arrow = delta.change > 0 ? <ArrowUpOutlined /> : delta.change < 0 ? <ArrowDownOutlined /> : <MinusOutlined />;
  return (
    <span style={{ color, whiteSpace: "nowrap" }} data-testid={`delta-${metric}`}>
      {arrow} {children} ({good === null ? t("same") : good ? t("better") : t("worse")})
    </span>
  );
}

const minus = "\u2212";

/** Availability, events, MTTR and die-hours lost, each with its change against the previous period. */
export function KeyFigures({ report }: { report: FaultReport }) {
  const t = useTranslations("faults.report.kpi");
  const format = useFormatter();
  const duration = useDuration();
  const { current, previous, deltas } = report;
  const signed = (n: number, digits = 0) => signedNumber(n, digits, (x, d) => format.number(x, { maximumFractionDigits: d, minimumFractionDigits: d }));
  /** A change as a percentage of the previous value; from nothing, as the value itself (`absolute`). */
  const ratio = (absolute: (change: number) => string) => (d: Delta) => (d.ratio === null ? absolute(d.change) : `${signed(d.ratio * 100)} %`);
  const hours = (ms: number) => format.number(ms / 3_600_000, { maximumFractionDigits: 1 });
  const signedDuration = (ms: number) => (ms < 0 ? minus : "+") + duration(Math.abs(ms));
  const figures: { metric: Metric; title: string; value: string; previous: string | null; delta: Delta | null; change: (d: Delta) => string }[] = [
    {
      metric: "availabilityPts",
      title: t("availability"),
      value: `${format.number(current.overallAvailability * 100, { maximumFractionDigits: 2, minimumFractionDigits: 2 })} %`,
      previous: previous ? `${format.number(previous.overallAvailability * 100, { maximumFractionDigits: 2, minimumFractionDigits: 2 })} %` : null,
      delta: deltas?.availabilityPts ?? null,
      change: (d) => t("pts", { value: signed(d.change, 2) }),
    },
    { metric: "events", title: t("events"), value: format.number(current.events), previous: previous ? format.number(previous.events) : null, delta: deltas?.events ?? null, change: ratio((n) => signed(n)) },
    {
      metric: "mttrMs",
      title: t("mttr"),
      value: current.mttrMs === null ? "—" : duration(current.mttrMs),
      previous: previous?.mttrMs === null || previous?.mttrMs === undefined ? null : duration(previous.mttrMs),
      delta: deltas?.mttrMs ?? null,
      change: ratio(signedDuration),
    },
    { metric: "lostDieMs", title: t("lost"), value: hours(current.lostDieMs), previous: previous ? hours(previous.lostDieMs) : null, delta: deltas?.lostDieMs ?? null, change: ratio((ms) => signed(ms / 3_600_000, 1)) },
  ];
  return (
    <Row gutter={[12, 12]} data-testid="report-key-figures">
      {figures.map((f) => (
        <Col key={f.metric} flex="1 1 200px">
          <Card size="small" className="report-avoid-break">
            <Statistic title={f.title} value={f.value} />
            <Typography.Text type="secondary" style={{ display: "block" }}>
              {f.delta ? <DeltaText metric={f.metric} delta={f.delta}>{f.change(f.delta)}</DeltaText> : t("noPrevious")}
            </Typography.Text>
            {f.previous !== null && <Typography.Text type="secondary">{t("previous", { value: f.previous })}</Typography.Text>}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
