import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgEnum, pgTable, primaryKey, serial, text, timestamp, unique } from "drizzle-orm/pg-core";
import type { DiagnosisReport } from "@/lib/hccl-diagnose";
import { clusters } from "../cluster/table";
import { rankTables } from "../rank-table/table";
import { jobSources, jobStates, matchKinds, unmatchedReasons } from "./constants";
import type { PlacementSummary } from "@/lib/jobs/model";

export const jobState = pgEnum("job_state", jobStates);
export const jobSource = pgEnum("job_source", jobSources);
export const jobRankMatch = pgEnum("job_rank_match", matchKinds);
export const jobRankUnmatched = pgEnum("job_rank_unmatched", unmatchedReasons);

/**
 * A training job on a cluster of the inventory. A job is named by (cluster, namespace, name), as Kubernetes names it,
 * so posting its rings-config ConfigMap again updates it. Its rank table is stored as it came (the ConfigMap's
 * hccl.json, a saved revision's text, or the API's), with the saved table and revision it came from when it did.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: serial("id").primaryKey(),
    clusterId: integer("cluster_id")
      .notNull()
      .references(() => clusters.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    namespace: text("namespace").notNull().default("default"),
    state: jobState("state").notNull(),
    source: jobSource("source").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true, precision: 3 }),
    endedAt: timestamp("ended_at", { withTimezone: true, precision: 3 }),
    rankTableId: integer("rank_table_id").references(() => rankTables.id, { onDelete: "set null" }),
    rankTableRevision: integer("rank_table_revision"),
    /** The job's rank table text, as it came; null while a ConfigMap is still initializing with no table at all. */
    rankTableText: text("rank_table_text"),
    /** hccl.json's `status` (initializing, completed, …) when the job came from a rings-config ConfigMap. */
    rankTableStatus: text("rank_table_status"),
    /** The ConfigMap's `version` (or resourceVersion): an older post than the stored one changes nothing. */
    configVersion: text("config_version"),
    labels: jsonb("labels").$type<Record<string, string>>().notNull().default({}),
    environment: jsonb("environment").$type<Record<string, string>>().notNull().default({}),
    /**
     * Variables set on some ranks only (a launcher that sets HCCL_NPU_SOCKET_PORT_RANGE per process, a failover's
     * per-host HCCL_IF_BASE_PORT), by rank number; each rank's own values win over `environment`.
     */
    rankEnvironment: jsonb("rank_environment").$type<Record<string, Record<string, string>>>().notNull().default({}),
    placement: jsonb("placement").$type<PlacementSummary>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("jobs_cluster_namespace_name").on(t.clusterId, t.namespace, t.name),
    check("jobs_name_not_blank", sql`length(trim(${t.name})) > 0`),
    check("jobs_ended_after_started", sql`${t.endedAt} is null or ${t.startedAt} is null or ${t.endedAt} >= ${t.startedAt}`),
  ],
);

/**
 * The server of a die key (`<server>/<device>`: server ids may hold "/", devices never do), in SQL over the die key
 * expression `dieKey`. job_ranks_job_die_server indexes it, so the queries that look a server up spell it this way.
 */
export const dieKeyServerSql = (dieKey: string) => `regexp_replace(${dieKey}, '/[^/]*$', '')`;

/**
 * Each rank of a job's table and the die it runs on. The die is kept as the fault events name it (`<server>/<device>`,
 * their target key without `die:`), so faults on it, or on a link at it, are found by key even after the inventory
 * is imported again; a rank that matched no die has `die_key` null and says why.
 */
export const jobRanks = pgTable(
  "job_ranks",
  {
    jobId: integer("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    /** Position in the table's server_list/device order. */
    position: integer("position").notNull(),
    rank: integer("rank"),
    serverId: text("server_id"),
    hostIp: text("host_ip"),
    deviceId: integer("device_id"),
    deviceIp: text("device_ip"),
    dieKey: text("die_key"),
    match: jobRankMatch("match"),
    unmatched: jobRankUnmatched("unmatched"),
    deviceIpDiffers: boolean("device_ip_differs").notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.position] }),
    index("job_ranks_die_key").on(t.dieKey).where(sql`${t.dieKey} is not null`),
    // The job page's sorts (db/queries/job-ranks.ts), so a page of a 100,000-rank job walks an index, not a sort of all.
    index("job_ranks_job_problems").on(t.jobId, sql`(${t.dieKey} is not null)`, t.rank, t.position),
    index("job_ranks_job_rank").on(t.jobId, t.rank, t.position),
    index("job_ranks_job_server").on(t.jobId, t.serverId, t.deviceId, t.position),
    // The server part of each placed die, for the faults on a server that hit a job (db/queries/faults/job-filter.ts):
    // one lookup per event. As a set of the job's servers it was hashed only while it fit in hash memory; past that
    // (a job on a whole SuperCluster) every server event read all the job's ranks: 46 s for a day's 5,000 (issue 21).
    index("job_ranks_job_die_server")
      .on(t.jobId, sql.raw(dieKeyServerSql('"die_key"')))
      .where(sql`${t.dieKey} is not null`),
  ],
);

/** A diagnosis of a job's HCCL logs (lib/hccl-diagnose), kept with who ran it on which files. */
export const jobDiagnoses = pgTable(
  "job_diagnoses",
  {
    id: serial("id").primaryKey(),
    jobId: integer("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    phase: text("phase").notNull(),
    report: jsonb("report").$type<DiagnosisReport>().notNull(),
    files: integer("files").notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    /** The fault events (kind hccl-error) the diagnosis recorded on its suspects. */
    faultEventIds: jsonb("fault_event_ids").$type<string[]>().notNull().default([]),
    authorType: text("author_type").notNull(),
    authorName: text("author_name"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("job_diagnoses_job_idx").on(t.jobId, t.createdAt)],
);
