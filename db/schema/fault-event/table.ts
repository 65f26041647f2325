import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { escalationRules, faultKinds, faultLevels, faultSources, retentionModes, targetKinds } from "./constants";
import { clusters } from "../cluster/table";

export const faultKind = pgEnum("fault_kind", faultKinds);
export const faultLevel = pgEnum("fault_level", faultLevels);
export const faultSource = pgEnum("fault_source", faultSources);
export const faultTargetKind = pgEnum("fault_target_kind", targetKinds);
export const faultRule = pgEnum("fault_rule", escalationRules);
export const faultRetentionMode = pgEnum("fault_retention_mode", retentionModes);

/**
 * Every fault event. Targets are resolved against the inventory at ingestion (server_ref, device_ref, …) and also
 * kept as a stable text key, so an event outlives a re-seeded inventory. No foreign keys besides the cluster: they
 * would cost a lookup per row at ingestion, and the key names the target anyway.
 *
 * Indexes, measured on 10M events over a year (scripts/bench/fault-queries.ts has the queries): for a 30-day window a BRIN
 * on began_at (176 kB) answered the timeline rows in 428 ms and the density in 332 ms, a btree on (cluster_id,
 * began_at) (301 MB) in 374 / 463 ms, while inserting 50k events in 1,000-row statements took 1.2 s with the BRIN
 * and 1.9 s with the btree. Events arrive roughly in time order, which is what BRIN needs, so: BRIN on began_at for
 * the timeline; a btree on (cluster_id, series_key, began_at) for the escalation rules' look-back (ingestion needs
 * it anyway); a partial index on open events for live health and end events.
 */
export const faultEvents = pgTable(
  "fault_events",
  {
    id: text("id").primaryKey(),
    /**
     * The cluster (clusters.id), kept by statement-level triggers (migration 0007) rather than a foreign key: the
     * key's row trigger locked the cluster row once per inserted event (1,000 times a batch, and as a MultiXact
     * when batches run in parallel); the triggers lock each cluster once per statement, refuse unknown ones
     * (23503, as the key did) and delete a cluster's events with it.
     */
    clusterId: integer("cluster_id").notNull(),
    targetKind: faultTargetKind("target_kind").notNull(),
    targetKey: text("target_key").notNull(),
    /** Target key + code (or kind): the events the escalation rules judge together. */
    seriesKey: text("series_key").notNull(),
    superPodRef: integer("super_pod_ref"),
    serverRef: integer("server_ref"),
    npuIndex: integer("npu_index"),
    deviceRef: integer("device_ref"),
    peerDeviceRef: integer("peer_device_ref"),
    kind: faultKind("kind").notNull(),
    source: faultSource("source").notNull(),
    /** Hex as the device reports it (81078603), or HCCL's EIxxxx; unknown codes are kept. */
    code: text("code"),
    /** HCCL phase (communicator-init, operator-loading, execution) or reschedule scope (job, pod, process). */
    phase: text("phase"),
    reportedLevel: faultLevel("reported_level").notNull(),
    /** The level after the escalation rules, and the rule that set it. */
    level: faultLevel("level").notNull(),
    rule: faultRule("rule").notNull(),
    ruleAt: timestamp("rule_at", { withTimezone: true, precision: 3 }),
    releaseAt: timestamp("release_at", { withTimezone: true, precision: 3 }),
    /** The first event of the merged fault (flaps within the recover timeout share it). */
    episodeId: text("episode_id").notNull(),
    beganAt: timestamp("began_at", { withTimezone: true, precision: 3 }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true, precision: 3 }),
    job: text("job"),
    rankTable: text("rank_table"),
    rank: integer("rank"),
    message: text("message"),
    raw: jsonb("raw"),
    receivedAt: timestamp("received_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index("fault_events_began_brin").using("brin", t.beganAt).with({ pages_per_range: 32 }),
    index("fault_events_series").on(t.clusterId, t.seriesKey, t.beganAt),
    // The topology details panel's recent faults: a node's own targets by key, and links by either end (target_key
    // is `link:<a>~<b>`), so a click reads the node's rows instead of a week of the whole cluster.
    index("fault_events_target").on(t.clusterId, t.targetKey, t.beganAt),
    index("fault_events_link_first_end").on(t.clusterId, sql`split_part(substr(${t.targetKey}, 6), '~', 1)`).where(sql`${t.targetKind} = 'link'`),
    index("fault_events_link_second_end").on(t.clusterId, sql`split_part(${t.targetKey}, '~', 2)`).where(sql`${t.targetKind} = 'link'`),
    index("fault_events_open").on(t.clusterId, t.seriesKey).where(sql`${t.endedAt} is null`),
    // Added for the statistics (0005): events that last an hour or more are the only ones that can cross an instant
    // from further back than an hour, so "what was going on at t" is a short BRIN range plus this small index.
    index("fault_events_long").on(t.clusterId, t.endedAt).where(sql`${t.endedAt} - ${t.beganAt} >= interval '1 hour'`),
    // Later events of a multi-event episode (flaps), by episode: tells the rollups which faults are one event.
    index("fault_events_continuations").on(t.episodeId).where(sql`${t.episodeId} <> ${t.id}`),
    // Events that name their job (HCCL errors, reschedules): the report's per-job time lost finds them without
    // reading the period's every event (0011).
    index("fault_events_job").on(t.clusterId, t.job, t.beganAt).where(sql`${t.job} is not null`),
    check("fault_events_end_after_begin", sql`${t.endedAt} is null or ${t.endedAt} >= ${t.beganAt}`),
  ],
);

/** Per-cluster escalation settings (faultCustomization.json semantics) and retention. */
export const faultSettings = pgTable("fault_settings", {
  clusterId: integer("cluster_id")
    .primaryKey()
    .references(() => clusters.id, { onDelete: "cascade" }),
  escalation: jsonb("escalation").notNull(),
  retentionDays: integer("retention_days").notNull(),
  /** What retention does with events older than retentionDays: delete them or move them to fault_event_archive. */
  retentionMode: faultRetentionMode("retention_mode").default("delete").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
});

/** The last device-info ConfigMap taken in per node: later snapshots are diffed against it; older ones are stale. */
export const deviceInfoSnapshots = pgTable(
  "device_info_snapshots",
  {
    clusterId: integer("cluster_id")
      .notNull()
      .references(() => clusters.id, { onDelete: "cascade" }),
    serverRef: integer("server_ref").notNull(),
    nodeName: text("node_name"),
    /** DeviceInfo.UpdateTime, seconds. */
    updateTime: bigint("update_time", { mode: "number" }).notNull(),
    checkCode: text("check_code"),
    raw: jsonb("raw").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [primaryKey({ columns: [t.clusterId, t.serverRef] })],
);
