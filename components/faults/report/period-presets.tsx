"use client";

import { DatePicker } from "antd";
import dayjs from "dayjs";
import { useTranslations } from "next-intl";
import { dayMs } from "@/lib/faults/report";
import { useNow } from "../format";

/**
 * The report's period: any range, or the last 7, 30 or 90 whole UTC days (ending at the next UTC midnight, so the
 * daily buckets are whole days and the same link gives the same report all day).
 */
export function PeriodPresets({ from, to, onChange }: { from: number; to: number; onChange: (period: { from: number; to: number }) => void }) {
  const t = useTranslations("faults.report");
  const now = useNow(60_000);
  const end = Math.floor(now / dayMs) * dayMs + dayMs;
  const last = (days: number) => [dayjs(end - days * dayMs), dayjs(end)] as [dayjs.Dayjs, dayjs.Dayjs];
  return (
    <DatePicker.RangePicker
      showTime
      aria-label={t("period")}
      data-testid="report-period"
      value={[dayjs(from), dayjs(to)]}
      presets={[
        { label: t("presets.7d"), value: last(7) },
        { label: t("presets.30d"), value: last(30) },
        { label: t("presets.90d"), value: last(90) },
      ]}
      onChange={(values) => {
        if (values?.[0] && values[1]) onChange({ from: values[0].valueOf(), to: values[1].valueOf() });
      }}
    />
  );
}
