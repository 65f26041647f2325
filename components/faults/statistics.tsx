"use client";

import { DownloadOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Col, Empty, Progress, Row, Skeleton, Statistic } from "antd";
import { Table } from "@/components/primitives/table";
import { useFormatter, useTranslations } from "next-intl";
import { useDeferredValue } from "react";
import { HealthTag } from "@/components/primitives/health-tag";
import type { FaultStatistics } from "@/lib/faults/api-types";
import { toCsv } from "@/lib/faults/timeline";
import { faultKeys, fetchStatistics } from "./api";
import { useDuration } from "./format";
import { toneOf } from "./level-colors";
import { downloadCsv } from "@/components/primitives/download";
import { DataAsOf } from "@/components/primitives/data-as-of";

/** What the period's faults cost: die-time under a fault of a level that stops work, over every super pod, in ms. */
const lostDieMs = (s: FaultStatistics) => s.availability.reduce((sum, a) => sum + a.faultyDieMs, 0);
const dieHours = (ms: number) => ms / 3_600_000;

export function statisticsCsv(s: FaultStatistics): string {
  const lost = lostDieMs(s);
  const rows: (string | number | null)[][] = [
    ...s.byKind.map((k) => ["events by kind", k.kind, k.count, null]),
    ...s.byLevel.map((l) => ["events by level", l.level, l.count, null]),
    ["mttr_s", null, s.mttrMs === null ? null : (s.mttrMs / 1000).toFixed(1), null],
    ["recovered", null, s.recovered, null],
    ["open", null, s.open, null],
    ["die_hours_lost", null, dieHours(lost).toFixed(2), (lost / 1000).toFixed(0)],
    ...s.topServers.map((x) => ["most affected servers", x.serverId, x.count, (x.faultMs / 1000).toFixed(0)]),
    ...s.topDies.map((x) => ["most affected dies", `${x.serverId}/${x.deviceId}`, x.count, (x.faultMs / 1000).toFixed(0)]),
    ...s.topCodes.map((x) => ["most frequent codes", x.code, x.count, (x.faultMs / 1000).toFixed(0)]),
    ...s.availability.map((a) => ["availability", a.superPodId ?? "(no super pod)", a.availability.toFixed(6), (a.faultyDieMs / 1000).toFixed(0)]),
  ];
  return toCsv(["section", "name", "value", "fault_seconds"], rows);
}

/** Statistics of the window: events by kind and level, MTTR, most-affected servers and dies, availability per super pod. */
export function FaultStatisticsView({ cluster, from, to }: { cluster: string; from: number; to: number }) {
  const t = useTranslations("faults.stats");
  const tk = useTranslations("faults.kinds");
  const format = useFormatter();
  const duration = useDuration();
  const query = useQuery({ queryKey: faultKeys.statistics(cluster, from, to), queryFn: ({ signal }) => fetchStatistics(cluster, from, to, signal) });
  // The answer is rendered in a deferred render, not in the query's notification task, which re-renders synchronously:
  // its cards and tables were one task of 60-115 ms at 524,288 NPUs (issue 21: no task over 50 ms).
  const s = useDeferredValue(query.data);
  if (query.isError) return <Alert type="error" showIcon title={t("loadError")} description={(query.error as Error).message} action={<Button onClick={() => void query.refetch()}>{t("retry")}</Button>} />;
  if (!s) return <Skeleton active paragraph={{ rows: 10 }} />;
  const total = s.byKind.reduce((sum, k) => sum + k.count, 0);
  if (total === 0) return <Empty description={t("empty")} />;
  return (
    <Row gutter={[16, 16]} data-testid="fault-statistics">
      <Col span={24} style={{ textAlign: "right" }}>
        <DataAsOf answer={s} />{" "}
        <Button icon={<DownloadOutlined />} onClick={() => downloadCsv(statisticsCsv(s), `fault-statistics-${cluster}.csv`)}>
          {t("exportCsv")}
        </Button>
      </Col>
      <Col flex="1 1 180px">
        <Card size="small"><Statistic title={t("events")} value={total} formatter={(v) => format.number(Number(v))} /></Card>
      </Col>
      <Col flex="1 1 180px">
        <Card size="small"><Statistic title={t("mttr")} value={s.mttrMs === null ? "—" : duration(s.mttrMs)} /></Card>
      </Col>
      <Col flex="1 1 180px">
        <Card size="small"><Statistic title={t("recovered")} value={s.recovered} formatter={(v) => format.number(Number(v))} /></Card>
      </Col>
      <Col flex="1 1 180px">
        <Card size="small"><Statistic title={t("open")} value={s.open} formatter={(v) => format.number(Number(v))} /></Card>
      </Col>
      <Col flex="1 1 180px">
        <Card size="small">
          <Statistic title={t("dieHoursLost")} value={dieHours(lostDieMs(s))} formatter={(v) => format.number(Number(v), { maximumFractionDigits: 1 })} suffix={t("dieHoursUnit")} />
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card size="small" title={t("byKind")}>
          <Table size="small" pagination={false} rowKey="kind" dataSource={s.byKind} columns={[{ title: t("kind"), dataIndex: "kind", render: (k: string) => tk(k) }, { title: t("count"), dataIndex: "count", align: "right", render: (n: number) => format.number(n) }]} />
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card size="small" title={t("byLevel")}>
          <Table size="small" pagination={false} rowKey="level" dataSource={s.byLevel} columns={[{ title: t("level"), dataIndex: "level", render: (_: string, r) => <HealthTag tone={toneOf(r.level)}>{r.level}</HealthTag> }, { title: t("count"), dataIndex: "count", align: "right", render: (n: number) => format.number(n) }]} />
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card size="small" title={t("topServers")}>
          <Table size="small" pagination={false} rowKey="serverId" dataSource={s.topServers} columns={[{ title: t("server"), dataIndex: "serverId" }, { title: t("count"), dataIndex: "count", align: "right" }, { title: t("faultTime"), dataIndex: "faultMs", align: "right", render: (ms: number) => duration(ms) }]} />
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card size="small" title={t("topDies")}>
          <Table size="small" pagination={false} rowKey={(r) => `${r.serverId}/${r.deviceId}`} dataSource={s.topDies} columns={[{ title: t("die"), key: "die", render: (_, r) => `${r.serverId} / ${r.deviceId}` }, { title: t("count"), dataIndex: "count", align: "right" }, { title: t("faultTime"), dataIndex: "faultMs", align: "right", render: (ms: number) => duration(ms) }]} />
        </Card>
      </Col>
      <Col span={24}>
        <Card size="small" title={t("availability")} extra={t("availabilityHint")}>
          <Table
            size="small"
            pagination={false}
            rowKey={(r) => r.superPodId ?? "none"}
            dataSource={s.availability}
            columns={[
              { title: t("superPod"), dataIndex: "superPodId", render: (id: string | null) => id ?? t("noSuperPod") },
              { title: t("dies"), dataIndex: "dies", align: "right" },
              { title: t("faultTime"), dataIndex: "faultyDieMs", align: "right", render: (ms: number) => duration(ms) },
              {
                title: t("availabilityColumn"),
                dataIndex: "availability",
                width: 320,
                render: (a: number) => (
                  <Progress percent={Number((a * 100).toFixed(4))} format={() => format.number(a, { style: "percent", maximumFractionDigits: 3 })} status={a < 0.999 ? "exception" : "normal"} />
                ),
              },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}
