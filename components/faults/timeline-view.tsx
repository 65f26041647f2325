"use client";

import { DownloadOutlined, ReloadOutlined } from "@ant-design/icons";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, DatePicker, Descriptions, Empty, Input, Segmented, Select, Skeleton, Space, Tag, Typography } from "antd";
import dayjs from "dayjs";
import { useTranslations } from "next-intl";
import { useCallback, useDeferredValue, useMemo } from "react";
import { HealthTag } from "@/components/primitives/health-tag";
import type { TimelineEvent } from "@/lib/faults/api-types";
import { faultLevels, type FaultLevel } from "@/lib/faults/levels";
import { faultKinds, type FaultKind } from "@/lib/faults/model";
import { buildLanes, overlapping, toCsv, type Lane } from "@/lib/faults/timeline";
import { faultKeys, fetchTimeline, type TimelineFilters } from "./api";
import { EventsTable, targetLabel } from "./events-table";
import { useDuration, useTimeFormat } from "./format";
import { levelColors, toneOf } from "./level-colors";
import { TimelineChart } from "./timeline-chart";
import { DataAsOf } from "@/components/primitives/data-as-of";
import { InboxBacklog } from "./inbox-backlog";

export interface TimelineState {
  from: number;
  to: number;
  zoom: [number, number] | null;
  brush: [number, number] | null;
  kind: FaultKind[];
  level: FaultLevel[];
  code?: string | undefined;
  target?: string | undefined;
  state: "all" | "open" | "closed";
  open: string[];
  sel?: string | undefined;
}

export function downloadText(name: string, text: string, type = "text/csv;charset=utf-8") {
  const url = URL.createObjectURL(new Blob(["\ufeff", text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function eventsCsv(events: TimelineEvent[]): string {
  return toCsv(
    ["id", "began_at", "ended_at", "duration_s", "super_pod", "server", "die", "target", "kind", "code", "level", "reported_level", "rule", "phase", "source", "job", "rank", "message"],
    events.map((e) => [
      e.id,
      new Date(e.beganAt).toISOString(),
      e.endedAt === null ? "" : new Date(e.endedAt).toISOString(),
      e.endedAt === null ? "" : ((e.endedAt - e.beganAt) / 1000).toFixed(3),
      e.superPodId,
      e.serverId,
      e.deviceId,
      targetLabel(e),
      e.kind,
      e.code,
      e.level,
      e.reportedLevel,
      e.rule,
      e.phase,
      e.source,
      e.job,
      e.rank,
      e.message,
    ]),
  );
}

const visuallyHidden = { position: "absolute", width: 1, height: 1, padding: 0, margin: -1, overflow: "hidden", clip: "rect(0,0,0,0)", whiteSpace: "nowrap", border: 0 } as const;

/** Filters, the swimlane chart with its density strip, the selected event and the table of the selection. */
export function TimelineView({
  cluster,
  state,
  now,
  theme,
  onChange,
}: {
  cluster: string;
  state: TimelineState;
  now: number;
  theme: "light" | "dark";
  onChange: (next: Partial<TimelineState>, mode?: "push" | "replace") => void;
}) {
  const t = useTranslations("faults.timeline");
  const tk = useTranslations("faults.kinds");
  const tr = useTranslations("faults.rules");
  const duration = useDuration();
  const time = useTimeFormat();
  const filters: TimelineFilters = { cluster, from: state.from, to: state.to, kind: state.kind, level: state.level, code: state.code, target: state.target, state: state.state };
  const query = useQuery({
    queryKey: faultKeys.timeline(filters),
    queryFn: ({ signal }) => fetchTimeline(filters, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  // The answer (thousands of events) is drawn in a deferred render, not in the query's notification task, which
  // re-renders its subscribers synchronously and runs their effects (the chart's setOption) in the same task (issue 21).
  const data = useDeferredValue(query.data);
  const events = useMemo(() => data?.events ?? [], [data]);
  const expanded = useMemo(() => new Set(state.open), [state.open]);
  const { lanes, laneOf } = useMemo(() => buildLanes(events, expanded), [events, expanded]);
  const laneName = useCallback(
    (lane: Lane) => {
      if (lane.kind === "pod") return t("superPod", { id: lane.label });
      if (lane.kind === "cluster") return t("clusterLane");
      if (lane.kind === "fabric") return t("fabricLane");
      if (lane.kind === "plane") return t("planeLane", { plane: lane.label });
      return lane.label;
    },
    [t],
  );
  const laneNames = useMemo(
    () => lanes.map((lane) => `${lane.expandable ? (lane.expanded ? "▾ " : "▸ ") : "  "}${"  ".repeat(lane.depth)}${laneName(lane)} (${lane.count})`),
    [lanes, laneName],
  );
  const range = state.brush ?? state.zoom;
  const selection = useMemo(() => (range ? overlapping(events, range[0], range[1], now) : events), [events, range, now]);
  const selected = state.sel ? events.find((e) => e.id === state.sel) : undefined;

  const toggleLane = (key: string) => {
    const open = expanded.has(key) ? state.open.filter((k) => k !== key) : [...state.open, key];
    onChange({ open });
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <Card size="small">
        <Space wrap size="small">
          <DatePicker.RangePicker
            showTime
            aria-label={t("window")}
            value={[dayjs(state.from), dayjs(state.to)]}
            presets={[
              { label: t("last24h"), value: [dayjs(now).subtract(24, "hour"), dayjs(now)] },
              { label: t("last7d"), value: [dayjs(now).subtract(7, "day"), dayjs(now)] },
              { label: t("last30d"), value: [dayjs(now).subtract(30, "day"), dayjs(now)] },
            ]}
            onChange={(values) => {
              if (values?.[0] && values[1]) onChange({ from: values[0].valueOf(), to: values[1].valueOf(), zoom: null, brush: null });
            }}
          />
          <Select<FaultKind[]>
            mode="multiple"
            allowClear
            aria-label={t("kind")}
            placeholder={t("allKinds")}
            style={{ minWidth: 200 }}
            maxTagCount="responsive"
            value={state.kind}
            onChange={(kind) => onChange({ kind })}
            options={faultKinds.map((k) => ({ value: k, label: tk(k) }))}
            data-testid="filter-kind"
          />
          <Select<FaultLevel[]>
            mode="multiple"
            allowClear
            aria-label={t("level")}
            placeholder={t("allLevels")}
            style={{ minWidth: 200 }}
            maxTagCount="responsive"
            value={state.level}
            onChange={(level) => onChange({ level })}
            options={faultLevels.map((l) => ({ value: l, label: l }))}
          />
          <Input.Search
            allowClear
            aria-label={t("code")}
            placeholder={t("codePlaceholder")}
            style={{ width: 150 }}
            defaultValue={state.code}
            onSearch={(code) => onChange({ code: code.trim() || undefined })}
          />
          <Input.Search
            allowClear
            aria-label={t("target")}
            placeholder={t("targetPlaceholder")}
            style={{ width: 200 }}
            defaultValue={state.target}
            onSearch={(target) => onChange({ target: target.trim() || undefined })}
            data-testid="filter-target"
          />
          <Segmented
            value={state.state}
            onChange={(value) => onChange({ state: value as TimelineState["state"] })}
            options={[
              { value: "all", label: t("stateAll") },
              { value: "open", label: t("stateOpen") },
              { value: "closed", label: t("stateClosed") },
            ]}
          />
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
            {t("refresh")}
          </Button>
          <Button icon={<DownloadOutlined />} disabled={selection.length === 0} onClick={() => downloadText(`faults-${cluster}-${new Date(state.from).toISOString().slice(0, 10)}.csv`, eventsCsv(selection))}>
            {t("exportCsv")}
          </Button>
          <DataAsOf answer={query.data} />
          <InboxBacklog />
        </Space>
      </Card>

      {query.isError ? (
        <Alert
          type="error"
          showIcon
          title={t("loadError")}
          description={(query.error as Error).message}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              {t("retry")}
            </Button>
          }
        />
      ) : null}

      <Card
        size="small"
        title={
          <Space wrap>
            <span>{t("title")}</span>
            {/* Once the deferred render has the answer: "0 of 51" was shown while the events were still the last render's. */}
            {data && data === query.data && !query.isPlaceholderData ? (
              <Typography.Text type="secondary" data-testid="fault-total">
                {t("shown", { shown: events.length, total: data.total })}
              </Typography.Text>
            ) : null}
            {query.data?.truncated ? <Tag color="warning">{t("truncated")}</Tag> : null}
          </Space>
        }
        extra={
          <Space wrap size={10} aria-label={t("legend")}>
            {faultLevels.map((level) => (
              <span key={level} style={{ display: "inline-flex", alignItems: "center", gap: 4, fontSize: 12 }}>
                <span aria-hidden style={{ width: 12, height: 12, borderRadius: 2, background: levelColors[level], display: "inline-block" }} />
                {level}
              </span>
            ))}
          </Space>
        }
      >
        {!data ? (
          <Skeleton active paragraph={{ rows: 8 }} />
        ) : events.length === 0 ? (
          <Empty description={t("empty")} />
        ) : (
          <>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
              {t("hint")}
            </Typography.Paragraph>
            <TimelineChart
              events={events}
              lanes={lanes}
              laneOf={laneOf}
              density={data.density}
              from={state.from}
              to={state.to}
              now={now}
              zoom={state.zoom}
              brush={state.brush}
              laneNames={laneNames}
              theme={theme}
              labels={{
                density: t("density"),
                brush: t("brush"),
                clearBrush: t("clearBrush"),
                tooltip: (e) =>
                  [
                    `<b>${escapeHtml(targetLabel(e))}</b>`,
                    `${escapeHtml(tk(e.kind))}${e.code ? ` · ${escapeHtml(e.code)}` : ""}`,
                    `${escapeHtml(e.level)} — ${escapeHtml(tr(e.rule))}`,
                    `${escapeHtml(time(e.beganAt))} · ${escapeHtml(e.endedAt === null ? t("openFor", { duration: duration(now - e.beganAt) }) : duration(e.endedAt - e.beganAt))}`,
                  ].join("<br/>"),
              }}
              onZoom={(zoom) => onChange({ zoom }, "replace")}
              onBrush={(brush) => onChange({ brush }, "replace")}
              onToggleLane={(lane) => toggleLane(lane.key)}
              onSelect={(e) => onChange({ sel: e.id })}
            />
            {/* The lanes in text, for screen readers and for reading without the canvas; each opens like its label. */}
            <ul aria-label={t("lanesList")} data-testid="timeline-lanes" style={visuallyHidden}>
              {lanes.map((lane) => (
                <li key={lane.key} data-lane={lane.key}>
                  {lane.expandable ? (
                    <button type="button" aria-expanded={lane.expanded} onClick={() => toggleLane(lane.key)}>
                      {`${laneName(lane)} (${lane.count})`}
                    </button>
                  ) : (
                    `${laneName(lane)} (${lane.count})`
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>

      {selected ? (
        <Card size="small" title={t("selectedEvent")} extra={<Button size="small" onClick={() => onChange({ sel: undefined })}>{t("close")}</Button>}>
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
      ) : null}

      <Card
        size="small"
        title={
          <Space>
            <span>{range ? t("selectionTitle", { from: time(range[0]), to: time(range[1]) }) : t("allEventsTitle")}</span>
            <Typography.Text type="secondary" data-testid="selection-count">
              {t("count", { count: selection.length })}
            </Typography.Text>
          </Space>
        }
      >
        <EventsTable events={selection} now={now} selectedId={state.sel} onSelect={(e) => onChange({ sel: e.id })} />
      </Card>
    </Space>
  );
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
