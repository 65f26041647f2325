import { faultLevelInfo, type FaultLevel } from "@/lib/faults/levels";

/**
 * Faults that stop work are those of a red ("faulty") level, the same set the fault statistics count as lost
 * die-time (db/queries/faults/timeline.ts `faultyLevels`).
 */
export function stopsWork(level: FaultLevel): boolean {
  return faultLevelInfo[level].tone === "faulty";
}

export interface CostEvent {
  level: FaultLevel;
  beganAt: number;
  /** null: still open. */
  endedAt: number | null;
}

export interface FaultCost {
  /** Wall-clock time within the job's run during which at least one work-stopping fault hit its dies or links, ms. */
  stoppedMs: number;
  /** The job's run so far (started → ended or now), ms; 0 when it has not started. */
  runMs: number;
  /** Events of a work-stopping level that overlapped the run. */
  stoppingEvents: number;
}

/**
 * What faults cost a job: the union of the work-stopping events' intervals inside its run (overlapping events count
 * once: a job stops once, however many of its dies are down), open events running until `now`.
 */
export function faultCost(events: readonly CostEvent[], run: { startedAt: number | null; endedAt: number | null }, now: number): FaultCost {
  if (run.startedAt === null) return { stoppedMs: 0, runMs: 0, stoppingEvents: 0 };
  const from = run.startedAt;
  const to = Math.max(from, run.endedAt ?? now);
  const spans = events
    .filter((e) => stopsWork(e.level))
    .map((e) => [Math.max(from, e.beganAt), Math.min(to, e.endedAt ?? now)] as const)
    .filter(([a, b]) => b > a)
    .sort((a, b) => a[0] - b[0]);
  let stoppedMs = 0;
  let cursor = -Infinity;
  for (const [a, b] of spans) {
    const start = Math.max(a, cursor);
    if (b > start) stoppedMs += b - start;
    cursor = Math.max(cursor, b);
  }
  return { stoppedMs, runMs: to - from, stoppingEvents: spans.length };
}
