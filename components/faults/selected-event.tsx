"use client";

import { Button, Card, Descriptions } from "antd";
import { HealthTag } from "@/components/primitives/health-tag";
import type { TimelineEvent } from "@/lib/faults/api-types";
import { targetLabel } from "./events-table";
import { useEventText } from "./format";
import { toneOf } from "./level-colors";

/** The event picked on the timeline or in the table, all its fields. */
export function SelectedEvent({ selected, now, onClose }: { selected: TimelineEvent; now: number; onClose: () => void }) {
  const { t, tk, tr, duration, time } = useEventText();
  return (
    <Card size="small" title={t("selectedEvent")} extra={<Button size="small" onClick={onClose}>{t("close")}</Button>}>
      <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }}>
        <Descriptions.Item label={t("target")}>{targetLabel(selected)}</Descriptions.Item>
        <Descriptions.Item label={t("kind")}>{tk(selected.kind)}</Descriptions.Item>
        <Descriptions.Item label={t("code")}>{selected.code ?? "—"}</Descriptions.Item>
        <Descriptions.Item label={t("level")}>
          <HealthTag tone={toneOf(selected.level)}>{selected.level}</HealthTag>
        </Descriptions.Item>
        <Descriptions.Item label={t("rule")}>
          {tr(selected.rule)}
          {selected.reportedLevel !== selected.level ? ` (${t("reportedAs", { level: selected.reportedLevel })})` : ""}
        </Descriptions.Item>
        <Descriptions.Item label={t("began")}>{time(selected.beganAt)}</Descriptions.Item>
        <Descriptions.Item label={t("duration")}>{selected.endedAt === null ? t("openFor", { duration: duration(now - selected.beganAt) }) : duration(selected.endedAt - selected.beganAt)}</Descriptions.Item>
        {selected.releaseAt ? <Descriptions.Item label={t("releaseAt")}>{time(selected.releaseAt)}</Descriptions.Item> : null}
        <Descriptions.Item label={t("episode")}>{selected.episodeId === selected.id ? t("episodeFirst") : selected.episodeId}</Descriptions.Item>
        <Descriptions.Item label={t("source")}>{selected.source}</Descriptions.Item>
        {selected.job ? <Descriptions.Item label={t("job")}>{`${selected.job}${selected.rank !== null ? ` #${selected.rank}` : ""}`}</Descriptions.Item> : null}
        {selected.message ? <Descriptions.Item label={t("message")}>{selected.message}</Descriptions.Item> : null}
      </Descriptions>
    </Card>
  );
}
