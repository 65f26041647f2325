-- How long events last, for the planner. The statistics' and report's reads of fault_events outside the rollups ask
-- for events lasting an hour or more (rollups.ts runningAt/runningPast, answered by fault_events_long); without
-- statistics on the expression the planner guesses a third of the table ending after the edge (272k-545k rows of
-- 10M where there were none), so every such read started two parallel workers (~14 ms each on 2 cores) for ~120 rows.
-- With them the estimate is a few hundred rows and the plans stay serial (scripts/bench/report.ts).
CREATE STATISTICS IF NOT EXISTS "fault_events_duration" ON (ended_at - began_at) FROM "fault_events";--> statement-breakpoint
ANALYZE "fault_events";
