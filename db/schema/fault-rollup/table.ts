import { bigint, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { clusters } from "../cluster/table";
import { faultKind, faultLevel } from "../fault-event/table";

/**
 * Statistics rollups of fault_events, so a 30-day period reads a few thousand rows instead of a million events
 * (db/queries/faults/rollups.ts keeps them; numbers in scripts/bench/fault-queries.ts). Events count in the hour (or
 * day) they began; durations are those of closed events, whole (the query clips the few that cross the period's
 * end); open events, and the partial hours at the period's edges, are read from fault_events.
 */
export const faultHourRollups = pgTable(
  "fault_hour_rollups",
  {
    clusterId: integer("cluster_id")
      .notNull()
      .references(() => clusters.id, { onDelete: "cascade" }),
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    kind: faultKind("kind").notNull(),
    level: faultLevel("level").notNull(),
    superPodRef: integer("super_pod_ref"),
    events: integer("events").notNull(),
    /** Summed durations of the closed events on a die, ms: availability per super pod. */
    dieClosedMs: bigint("die_closed_ms", { mode: "number" }).notNull(),
    /** Faults (episodes) made of one event: recovered ones, their summed durations, and open ones (MTTR). */
    singleRecovered: integer("single_recovered").notNull(),
    singleRecoveredMs: bigint("single_recovered_ms", { mode: "number" }).notNull(),
    singleOpen: integer("single_open").notNull(),
  },
  (t) => [index("fault_hour_rollups_hour").on(t.clusterId, t.hour)],
);

/** Events and summed closed durations per server and die and UTC day: the most-affected servers and dies. */
export const faultDayTargetRollups = pgTable(
  "fault_day_target_rollups",
  {
    clusterId: integer("cluster_id")
      .notNull()
      .references(() => clusters.id, { onDelete: "cascade" }),
    day: timestamp("day", { withTimezone: true }).notNull(),
    serverRef: integer("server_ref"),
    deviceRef: integer("device_ref"),
    events: integer("events").notNull(),
    closedMs: bigint("closed_ms", { mode: "number" }).notNull(),
  },
  (t) => [index("fault_day_target_rollups_day").on(t.clusterId, t.day)],
);

/**
 * What closed events on a die carry past the hour edges they cross, keyed by the hour they began (so the rebuild of
 * an hour keeps it, like the rows above): for each later UTC hour edge an event runs past, the part of it after that
 * edge. With them the time lost inside any run of whole hours [a, b) is exact without reading fault_events: the
 * durations of the events that began in it (fault_hour_rollups.die_closed_ms) plus what crosses a minus what crosses
 * b (db/queries/faults/report-series.ts); so a report's series cost the same whatever the number of day edges.
 */
export const faultHourCarries = pgTable(
  "fault_hour_carries",
  {
    clusterId: integer("cluster_id")
      .notNull()
      .references(() => clusters.id, { onDelete: "cascade" }),
    /** The hour the events began in. */
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    /** A later hour edge they run past. */
    edge: timestamp("edge", { withTimezone: true }).notNull(),
    kind: faultKind("kind").notNull(),
    level: faultLevel("level").notNull(),
    superPodRef: integer("super_pod_ref"),
    /** Summed time of those events after the edge, ms. */
    afterMs: bigint("after_ms", { mode: "number" }).notNull(),
  },
  (t) => [index("fault_hour_carries_hour").on(t.clusterId, t.hour), index("fault_hour_carries_edge").on(t.clusterId, t.edge)],
);

/** Faults of several events (flaps merged into one episode): their part in each hour, merged when read (MTTR). */
export const faultEpisodeParts = pgTable(
  "fault_episode_parts",
  {
    clusterId: integer("cluster_id")
      .notNull()
      .references(() => clusters.id, { onDelete: "cascade" }),
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    episodeId: text("episode_id").notNull(),
    beganAt: timestamp("began_at", { withTimezone: true, precision: 3 }).notNull(),
    /** Latest end among the part's closed events; null when none is closed. */
    endedAt: timestamp("ended_at", { withTimezone: true, precision: 3 }),
    openEvents: integer("open_events").notNull(),
  },
  (t) => [index("fault_episode_parts_hour").on(t.clusterId, t.hour)],
);

/**
 * Hours whose rollups are stale, appended by statement-level triggers on fault_events (one row per hour a statement
 * touched; no key, so concurrent ingestions never wait on each other) and consumed by the refresh. No foreign key:
 * deleting a cluster deletes its events, whose trigger runs after the cluster is gone.
 */
export const faultRollupDirty = pgTable(
  "fault_rollup_dirty",
  {
    clusterId: integer("cluster_id").notNull(),
    hour: timestamp("hour", { withTimezone: true }).notNull(),
  },
  (t) => [index("fault_rollup_dirty_hour").on(t.clusterId, t.hour)],
);

/** Events and summed closed durations per fault code and UTC day: the most frequent codes of a period (report). */
export const faultDayCodeRollups = pgTable(
  "fault_day_code_rollups",
  {
    clusterId: integer("cluster_id")
      .notNull()
      .references(() => clusters.id, { onDelete: "cascade" }),
    day: timestamp("day", { withTimezone: true }).notNull(),
    code: text("code").notNull(),
    events: integer("events").notNull(),
    closedMs: bigint("closed_ms", { mode: "number" }).notNull(),
  },
  (t) => [index("fault_day_code_rollups_day").on(t.clusterId, t.day)],
);
