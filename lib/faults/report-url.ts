import { z } from "zod";
import { faultLevelInfo, faultLevels, type FaultLevel } from "./levels";
import type { FaultKind } from "./model";
import { dayMs, maxReportMs } from "./report";
import { faultsQuery } from "./url";

/** The report page's sections, in page order; a URL without `sections` shows them all. */
export const reportSections = ["summary", "deltas", "events", "availability", "mttr", "lost", "offenders", "jobs"] as const;
export type ReportSection = (typeof reportSections)[number];

const ms = z.coerce.number().int().min(0).max(8_640_000_000_000).optional().catch(undefined);

/**
 * The report page's URL state: cluster, the period (`from`/`to`, ms), the comparison and the chosen sections. The
 * page fills in a missing period (the last 7 whole UTC days) before rendering, so a report's URL always reproduces it.
 */
export const reportSearchParams = z.object({
  cluster: z.string().regex(/^[a-z0-9-]{1,63}$/).optional().catch(undefined),
  from: ms,
  to: ms,
  compare: z.enum(["previous", "none"]).catch("previous").default("previous"),
  sections: z
    .string()
    .max(200)
    .optional()
    .transform((text) => (text ? text.split(",").filter((s): s is ReportSection => (reportSections as readonly string[]).includes(s)) : []))
    .catch([]),
});
export type ReportSearchParams = z.infer<typeof reportSearchParams>;

/** A period a report can cover: ordered, at most maxReportMs; otherwise the default. */
export function reportPeriod(state: Pick<ReportSearchParams, "from" | "to">, now = Date.now()): { from: number; to: number } {
  const { from, to } = state;
  if (from !== undefined && to !== undefined && to > from && to - from <= maxReportMs) return { from, to };
  const end = Math.floor(now / dayMs) * dayMs + dayMs;
  return { from: end - 7 * dayMs, to: end };
}

export function reportQuery(state: Partial<ReportSearchParams>): string {
  const params = new URLSearchParams();
  if (state.cluster) params.set("cluster", state.cluster);
  if (state.from !== undefined) params.set("from", String(state.from));
  if (state.to !== undefined) params.set("to", String(state.to));
  if (state.compare === "none") params.set("compare", "none");
  if (state.sections?.length) params.set("sections", state.sections.join(","));
  return params.toString();
}

/** The API's report URL for a period (JSON, or CSV). */
export function reportApiUrl(cluster: string, from: number, to: number, compare: boolean, format: "json" | "csv" = "json"): string {
  const params = new URLSearchParams({ cluster, from: String(from), to: String(to) });
  if (compare) params.set("compare", "previous");
  if (format === "csv") params.set("format", "csv");
  return `/api/v1/fault-events/report?${params}`;
}

export const workStoppingLevels: FaultLevel[] = faultLevels.filter((l) => faultLevelInfo[l].tone === "faulty");

/** What a click on a chart or an offender selects: the timeline of that span, filtered to it. */
export interface TimelineTarget {
  from: number;
  to: number;
  level?: FaultLevel[];
  kind?: FaultKind[];
  code?: string;
  target?: string;
  /** A super pod's swimlane to open (`pod:<id>`). */
  pod?: string;
}

export function timelineLink(cluster: string, t: TimelineTarget): string {
  return `/faults?${faultsQuery({
    cluster,
    from: t.from,
    to: t.to,
    level: t.level ?? [],
    kind: t.kind ?? [],
    code: t.code,
    target: t.target,
    open: t.pod === undefined ? [] : [`pod:${t.pod}`],
  })}`;
}
