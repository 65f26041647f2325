"use client";

import { StarOutlined } from "@ant-design/icons";
import { Space, Tag } from "antd";
import { Table } from "@/components/primitives/table";
import { Link } from "@/components/primitives/link";
import { useFormatter, useTranslations } from "next-intl";
import type { FaultReport, JobLoss, Offender } from "@/lib/faults/report";
import { timelineLink, type TimelineTarget } from "@/lib/faults/report-url";
import { useDuration } from "../format";
import { DeltaText } from "./key-figures";

/** One offender list: events with the previous period's and the change, fault time; the name opens the timeline. */
export function OffendersTable({ report, offenders, select, testId }: { report: FaultReport; offenders: Offender[]; select: (o: Offender) => Partial<TimelineTarget>; testId: string }) {
  const t = useTranslations("faults.report.offenders");
  const format = useFormatter();
  const duration = useDuration();
  return (
    <Table<Offender>
      size="small"
      pagination={false}
      rowKey="key"
      data-testid={testId}
      dataSource={offenders}
      locale={{ emptyText: t("none") }}
      columns={[
        {
          title: t("name"),
          key: "name",
          render: (_, o) => (
            <Space size={4} wrap>
              <Link href={timelineLink(report.cluster.slug, { from: report.from, to: report.to, ...select(o) })}>{o.key}</Link>
              {o.isNew && (
                <Tag color="red" icon={<StarOutlined />}>
                  {t("new")}
                </Tag>
              )}
            </Space>
          ),
        },
        { title: t("events"), dataIndex: "count", align: "right", render: (n: number) => format.number(n) },
        ...(report.previous
          ? [
              { title: t("previous"), key: "previous", align: "right" as const, render: (_: unknown, o: Offender) => format.number(o.previous?.count ?? 0) },
              {
                title: t("change"),
                key: "change",
                align: "right" as const,
                render: (_: unknown, o: Offender) => {
                  const before = o.previous?.count ?? 0;
                  const change = o.count - before;
                  return (
                    <DeltaText metric="events" delta={{ current: o.count, previous: before, change, ratio: before ? change / before : null }}>
                      {format.number(change, { signDisplay: "exceptZero" })}
                    </DeltaText>
                  );
                },
              },
            ]
          : []),
        { title: t("faultTime"), dataIndex: "faultMs", align: "right", render: (ms: number) => duration(ms) },
      ]}
    />
  );
}

/** Jobs that ran in the period, the most time lost first, with the faults that caused it. */
export function JobsTable({ report }: { report: FaultReport }) {
  const t = useTranslations("faults.report.jobs");
  const tk = useTranslations("faults.kinds");
  const format = useFormatter();
  const duration = useDuration();
  return (
    <Table<JobLoss>
      size="small"
      pagination={report.jobs.length > 20 ? { pageSize: 20, showTotal: (total) => format.number(total) } : false}
      rowKey="id"
      data-testid="report-jobs"
      dataSource={report.jobs}
      locale={{ emptyText: t("none") }}
      columns={[
        { title: t("job"), key: "job", render: (_, j) => <Link href={`/jobs/${j.id}`}>{`${j.namespace}/${j.name}`}</Link> },
        { title: t("stopped"), dataIndex: "stoppedMs", align: "right", render: (ms: number) => (ms > 0 ? duration(ms) : "0") },
        { title: t("run"), dataIndex: "runMs", align: "right", render: (ms: number) => duration(ms) },
        { title: t("share"), key: "share", align: "right", render: (_, j) => (j.runMs > 0 ? format.number(j.stoppedMs / j.runMs, { style: "percent", maximumFractionDigits: 1 }) : "—") },
        {
          title: t("causes"),
          key: "causes",
          render: (_, j) => (
            <Space size={4} wrap>
              {j.causes.slice(0, 4).map((c) => (
                <Tag key={`${c.kind}/${c.code ?? ""}`}>
                  {tk(c.kind)}
                  {c.code ? ` ${c.code}` : ""} · {t("events", { count: c.events })} · {duration(c.ms)}
                </Tag>
              ))}
            </Space>
          ),
        },
      ]}
    />
  );
}
