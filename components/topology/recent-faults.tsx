"use client";

import { FieldTimeOutlined } from "@ant-design/icons";
import { Space, Tag, Typography } from "antd";
import { Link } from "@/components/primitives/link";
import { useFormatter, useTranslations } from "next-intl";
import { faultsQuery } from "@/lib/faults/url";
import { useDuration, useNow, useTimeFormat } from "@/components/faults/format";
import { levelColors, toneOf } from "@/components/faults/level-colors";
import { HealthTag } from "@/components/primitives/health-tag";
import type { RecentFaults } from "@/lib/topology/model";

/** `die:sp0-node01/3` → "sp0-node01 · die 3", `link:a~b` → "a ↔ b": where an event of the list happened. */
function useFaultTargetLabel(): (key: string) => string {
  const t = useTranslations("topology");
  return (key) => {
    const [prefix, rest = ""] = key.split(/:(.*)/s);
    switch (prefix) {
      case "pod":
        return `${t("kinds.superpod")} ${rest}`;
      case "npu":
        return rest.replace(/\/(\d+)$/, " · NPU $1");
      case "die":
        return rest.replace(/\/(\d+)$/, " · die $1");
      case "switch":
        return rest.replace(/\/(\d+)$/, " · switch chip $1");
      case "link":
        return rest.replace("~", " ↔ ");
      default:
        return rest || key;
    }
  };
}

const sameDay = (a: number, b: number) => new Date(a).toDateString() === new Date(b).toDateString();

/** The node's newest fault events, coloured by level as on the faults pages, each opening in the fault timeline. */
export function RecentFaultList({ cluster, faults }: { cluster: string; faults: RecentFaults }) {
  const t = useTranslations("topology");
  const tk = useTranslations("faults.kinds");
  const tt = useTranslations("faults.timeline");
  const duration = useDuration();
  const time = useTimeFormat();
  const format = useFormatter();
  const clock = (ms: number) => format.dateTime(new Date(ms), { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  const targetLabel = useFaultTargetLabel();
  const now = useNow();
  const days = Math.round((now - faults.since) / 86_400_000);
  const timelineHref = (sel?: string) =>
    `/faults?${faultsQuery({ cluster, from: faults.since, target: faults.timeline.target ?? undefined, open: faults.timeline.open, sel })}`;
  if (faults.total === 0) {
    return <Typography.Text type="secondary">{t("details.noRecentFaults", { days })}</Typography.Text>;
  }
  return (
    <Space orientation="vertical" size={6} style={{ width: "100%" }}>
      <Typography.Text data-testid="recent-fault-summary">
        {t("details.faultSummary", { total: faults.total, open: faults.open, days })}
        {faults.events.length < faults.total && ` · ${t("details.faultsShown", { shown: faults.events.length })}`}
      </Typography.Text>
      <ul aria-label={t("details.faults")} style={{ listStyle: "none", margin: 0, padding: 0 }}>
        {faults.events.map((event) => (
          <li key={event.id} style={{ padding: "4px 0", borderTop: "1px solid rgba(128, 128, 128, 0.2)" }}>
            <Space size={[6, 2]} wrap>
              <HealthTag tone={toneOf(event.level)}>
                <span aria-hidden style={{ width: 8, height: 8, borderRadius: 2, background: levelColors[event.level], display: "inline-block", marginRight: 4 }} />
                {event.level}
              </HealthTag>
              <span>{tk(event.kind)}</span>
              {event.code && <Typography.Text code>{event.code}</Typography.Text>}
              {event.endedAt === null && <Tag color="error">{tt("openFor", { duration: duration(now - event.beganAt) })}</Tag>}
            </Space>
            <div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                <Link href={timelineHref(event.id)}>{time(event.beganAt)}</Link>
                {event.endedAt !== null && ` → ${sameDay(event.beganAt, event.endedAt) ? clock(event.endedAt) : time(event.endedAt)} · ${duration(event.endedAt - event.beganAt)}`}
                {` · ${targetLabel(event.targetKey)}`}
              </Typography.Text>
            </div>
          </li>
        ))}
      </ul>
      <Link href={timelineHref()}>
        <FieldTimeOutlined /> {t("details.openTimeline")}
      </Link>
    </Space>
  );
}
