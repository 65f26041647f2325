"use client";

import { useFormatter, useTranslations } from "next-intl";
import { startTransition, useCallback, useEffect, useState } from "react";
import { durationParts } from "@/lib/faults/timeline";

/** "3 min 20 s" / "3 分 20 秒" in the UI language. */
export function useDuration(): (ms: number) => string {
  const t = useTranslations("faults.units");
  const format = useFormatter();
  return useCallback((ms: number) => durationParts(ms).map((p) => t(p.unit, { value: format.number(p.value) })).join(" "), [t, format]);
}

/** A time in the browser's zone (UTC is in the title where the element allows it). */
export function useTimeFormat(): (ms: number) => string {
  const format = useFormatter();
  return useCallback((ms: number) => format.dateTime(new Date(ms), { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }), [format]);
}

/** How a fault event's fields read: the timeline's labels, kinds and rules by name, durations and times. */
export function useEventText() {
  const t = useTranslations("faults.timeline");
  const tk = useTranslations("faults.kinds");
  const tr = useTranslations("faults.rules");
  return { t, tk, tr, duration: useDuration(), time: useTimeFormat() };
}

/**
 * A clock for open events: they run until now, so durations move on by themselves. Each tick re-renders in a
 * transition, so a page's tables of events redraw in slices instead of one task (issue 21).
 */
export function useNow(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => startTransition(() => setNow(Date.now())), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
