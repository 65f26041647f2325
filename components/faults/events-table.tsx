"use client";

import { Tag, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import type { TableHTMLAttributes } from "react";
import { HealthTag } from "@/components/primitives/health-tag";
import type { TimelineEvent } from "@/lib/faults/api-types";
import { faultLevels } from "@/lib/faults/levels";
import { naturalCompare } from "@/lib/natural-order";
import { useEventText } from "./format";
import { toneOf } from "./level-colors";

export function targetLabel(e: Pick<TimelineEvent, "superPodId" | "serverId" | "deviceId" | "targetKind" | "targetKey">): string {
  if (e.targetKind === "link") return e.targetKey.replace(/^link:/, "").replace("~", " ↔ ");
  // A 灵衢 switch chip of a server (SwitchInfoCfg's SwitchChipId): `switch:<server>/<chip>`.
  if (e.targetKind === "switch") return e.targetKey.replace(/^switch:/, "").replace(/\/(\d+)$/, " / switch chip $1");
  if (e.serverId && e.deviceId !== null) return `${e.serverId} / ${e.deviceId}`;
  if (e.serverId) return e.serverId;
  if (e.superPodId) return `super pod ${e.superPodId}`;
  return "cluster";
}

const wideTable = { table: (props: TableHTMLAttributes<HTMLTableElement>) => <table {...props} style={{ ...props.style, minWidth: 1100 }} /> };

/** The events of the selection: sortable, paginated, counted; a row click selects the event. */
export function EventsTable({ events, now, selectedId, onSelect }: { events: TimelineEvent[]; now: number; selectedId?: string | undefined; onSelect: (e: TimelineEvent) => void }) {
  const { t, tk, tr, duration, time } = useEventText();
  return (
    <Table<TimelineEvent>
      size="small"
      rowKey="id"
      dataSource={events}
      data-testid="fault-events-table"
      onRow={(record) => ({ onClick: () => onSelect(record), style: { cursor: "pointer" } })}
      rowClassName={(record) => (record.id === selectedId ? "ant-table-row-selected" : "")}
      pagination={{ defaultPageSize: 20, showSizeChanger: true, showTotal: (total) => t("count", { count: total }) }}
      // At least 1,100 px wide, scrolled sideways in its own box, as `scroll.x` drew it, without the hidden row
      // `scroll.x` adds to measure every column in a layout effect (a forced layout of the page: 80-90 ms of a 190 ms
      // task on the job page of a 16,384-rank job; issue 21).
      tableLayout="fixed"
      styles={{ content: { overflowX: "auto" } }}
      components={wideTable}
      columns={[
        {
          title: t("began"),
          dataIndex: "beganAt",
          width: 170,
          sorter: (a, b) => a.beganAt - b.beganAt,
          defaultSortOrder: "ascend",
          render: (value: number) => time(value),
        },
        {
          title: t("duration"),
          key: "duration",
          width: 120,
          sorter: (a, b) => (a.endedAt ?? now) - a.beganAt - ((b.endedAt ?? now) - b.beganAt),
          render: (_, e) => (e.endedAt === null ? <Tag color="error">{t("openFor", { duration: duration(now - e.beganAt) })}</Tag> : duration(e.endedAt - e.beganAt)),
        },
        { title: t("target"), key: "target", width: 190, sorter: (a, b) => naturalCompare(targetLabel(a), targetLabel(b)), render: (_, e) => <Typography.Text code>{targetLabel(e)}</Typography.Text> },
        { title: t("kind"), dataIndex: "kind", width: 170, render: (kind: string) => tk(kind) },
        { title: t("code"), dataIndex: "code", width: 100, render: (code: string | null) => code ?? "—" },
        {
          title: t("level"),
          dataIndex: "level",
          width: 190,
          sorter: (a, b) => faultLevels.indexOf(a.level) - faultLevels.indexOf(b.level),
          render: (_, e) => <HealthTag tone={toneOf(e.level)}>{e.level}</HealthTag>,
        },
        { title: t("rule"), dataIndex: "rule", width: 200, render: (rule: string, e) => <span title={e.reportedLevel !== e.level ? t("reportedAs", { level: e.reportedLevel }) : undefined}>{tr(rule)}</span> },
        { title: t("phase"), dataIndex: "phase", width: 130, render: (phase: string | null) => phase ?? "—" },
        { title: t("source"), dataIndex: "source", width: 120 },
        { title: t("job"), key: "job", width: 140, render: (_, e) => (e.job ? `${e.job}${e.rank !== null ? ` #${e.rank}` : ""}` : "—") },
      ]}
    />
  );
}
