"use client";

import { DownloadOutlined, ReloadOutlined } from "@ant-design/icons";
import { Button, Card, DatePicker, Input, Segmented, Select, Space } from "antd";
import dayjs from "dayjs";
import { useTranslations } from "next-intl";
import { DataAsOf } from "@/components/primitives/data-as-of";
import type { TimelineEvent } from "@/lib/faults/api-types";
import { faultLevels, type FaultLevel } from "@/lib/faults/levels";
import { faultKinds, type FaultKind } from "@/lib/faults/model";
import { downloadCsv } from "@/components/primitives/download";
import { eventsCsv } from "./csv-export";
import { InboxBacklog } from "./inbox-backlog";
import type { TimelineState } from "./timeline-view";

/** The timeline's filters (window, kinds, levels, code, target, state), refresh, and the CSV export of the selection. */
export function TimelineFilterBar({
  cluster,
  state,
  now,
  selection,
  answer,
  onRefresh,
  onChange,
}: {
  cluster: string;
  state: TimelineState;
  now: number;
  /** The events the export writes. */
  selection: TimelineEvent[];
  /** The timeline's answer, for its "data as of". */
  answer: unknown;
  onRefresh: () => void;
  onChange: (next: Partial<TimelineState>) => void;
}) {
  const t = useTranslations("faults.timeline");
  const tk = useTranslations("faults.kinds");
  return (
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
        <Button icon={<ReloadOutlined />} onClick={onRefresh}>
          {t("refresh")}
        </Button>
        <Button icon={<DownloadOutlined />} disabled={selection.length === 0} onClick={() => downloadCsv(eventsCsv(selection), `faults-${cluster}-${new Date(state.from).toISOString().slice(0, 10)}.csv`)}>
          {t("exportCsv")}
        </Button>
        <DataAsOf answer={answer} />
        <InboxBacklog />
      </Space>
    </Card>
  );
}
