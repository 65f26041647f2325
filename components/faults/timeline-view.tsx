"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Empty, Skeleton, Space, Tag, Typography } from "antd";
import { useCallback, useDeferredValue, useMemo } from "react";
import { faultLevels, type FaultLevel } from "@/lib/faults/levels";
import type { FaultKind } from "@/lib/faults/model";
import { buildLanes, listedLanes, overlapping, type Lane } from "@/lib/faults/timeline";
import { escapeHtml } from "@/lib/html";
import { faultKeys, fetchTimeline, type TimelineFilters } from "./api";
import { EventsTable, targetLabel } from "./events-table";
import { useEventText } from "./format";
import { levelColors } from "./level-colors";
import { SelectedEvent } from "./selected-event";
import { TimelineChart } from "./timeline-chart";
import { TimelineFilterBar } from "./timeline-filters";

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

/** The lanes listed in text at most (see listedLanes). */
const LANES_LISTED = 200;

const visuallyHidden = { position: "absolute", width: 1, height: 1, padding: 0, margin: -1, overflow: "hidden", clip: "rect(0,0,0,0)", whiteSpace: "nowrap", border: 0 } as const;

/** Filters (./timeline-filters.tsx), the swimlane chart with its density strip, the selected event and the table of the selection. */
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
  const { t, tk, tr, duration, time } = useEventText();
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
  const { listed, more } = useMemo(() => listedLanes(lanes, LANES_LISTED), [lanes]);
  const selection = useMemo(() => (range ? overlapping(events, range[0], range[1], now) : events), [events, range, now]);
  const selected = state.sel ? events.find((e) => e.id === state.sel) : undefined;

  const toggleLane = (key: string) => {
    const open = expanded.has(key) ? state.open.filter((k) => k !== key) : [...state.open, key];
    onChange({ open });
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <TimelineFilterBar cluster={cluster} state={state} now={now} selection={selection} answer={query.data} onRefresh={() => void query.refetch()} onChange={onChange} />

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
              {listed.map((lane) => (
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
              {more > 0 ? <li data-testid="timeline-lanes-more">{t("lanesMore", { count: more })}</li> : null}
            </ul>
          </>
        )}
      </Card>

      {selected ? <SelectedEvent selected={selected} now={now} onClose={() => onChange({ sel: undefined })} /> : null}

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

