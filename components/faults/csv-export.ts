import type { TimelineEvent } from "@/lib/faults/api-types";
import { toCsv } from "@/lib/faults/timeline";
import { targetLabel } from "./events-table";

/** The events as CSV, in the columns the CSV import reads back (lib/faults/csv.ts). */
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
