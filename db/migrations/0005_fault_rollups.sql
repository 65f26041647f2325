CREATE TYPE "public"."fault_retention_mode" AS ENUM('delete', 'archive');--> statement-breakpoint
CREATE TABLE "fault_day_target_rollups" (
	"cluster_id" integer NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"server_ref" integer,
	"device_ref" integer,
	"events" integer NOT NULL,
	"closed_ms" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fault_episode_parts" (
	"cluster_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"episode_id" text NOT NULL,
	"began_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"open_events" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fault_hour_rollups" (
	"cluster_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"kind" "fault_kind" NOT NULL,
	"level" "fault_level" NOT NULL,
	"super_pod_ref" integer,
	"events" integer NOT NULL,
	"die_closed_ms" bigint NOT NULL,
	"single_recovered" integer NOT NULL,
	"single_recovered_ms" bigint NOT NULL,
	"single_open" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fault_rollup_dirty" (
	"cluster_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fault_settings" ADD COLUMN "retention_mode" "fault_retention_mode" DEFAULT 'delete' NOT NULL;--> statement-breakpoint
ALTER TABLE "fault_day_target_rollups" ADD CONSTRAINT "fault_day_target_rollups_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fault_episode_parts" ADD CONSTRAINT "fault_episode_parts_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fault_hour_rollups" ADD CONSTRAINT "fault_hour_rollups_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fault_day_target_rollups_day" ON "fault_day_target_rollups" USING btree ("cluster_id","day");--> statement-breakpoint
CREATE INDEX "fault_episode_parts_hour" ON "fault_episode_parts" USING btree ("cluster_id","hour");--> statement-breakpoint
CREATE INDEX "fault_hour_rollups_hour" ON "fault_hour_rollups" USING btree ("cluster_id","hour");--> statement-breakpoint
CREATE INDEX "fault_rollup_dirty_hour" ON "fault_rollup_dirty" USING btree ("cluster_id","hour");--> statement-breakpoint
CREATE INDEX "fault_events_long" ON "fault_events" USING btree ("cluster_id","ended_at") WHERE "fault_events"."ended_at" - "fault_events"."began_at" >= interval '1 hour';--> statement-breakpoint
CREATE INDEX "fault_events_continuations" ON "fault_events" USING btree ("episode_id") WHERE "fault_events"."episode_id" <> "fault_events"."id";--> statement-breakpoint
-- Retention's archive (lib/faults/retention.ts): fault_events' columns, plus when each row was moved here.
CREATE TABLE "fault_event_archive" (LIKE "fault_events" INCLUDING DEFAULTS, "archived_at" timestamp with time zone DEFAULT now() NOT NULL);--> statement-breakpoint
CREATE INDEX "fault_event_archive_began_brin" ON "fault_event_archive" USING brin ("began_at");--> statement-breakpoint
-- Marks the hours a statement on fault_events touched as stale for the rollups (db/queries/fault-rollups.ts): the
-- hour each changed row began in, and, for a later event of a multi-event episode, the hour its first event began
-- in (whether that one is a fault of one event or of several changes). Statement-level with transition tables:
-- one INSERT per statement whatever its size. Always a new row, never "already marked": a mark a refresh is deleting
-- could stand for events that refresh does not see yet. The server's hourly retention run drains the log.
CREATE FUNCTION "fault_rollups_mark_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO fault_rollup_dirty (cluster_id, hour)
    SELECT t.cluster_id, t.hour FROM (
      SELECT cluster_id, date_bin('1 hour', began_at, timestamptz '2000-01-01 00:00:00+00') AS hour FROM changed_new
      UNION
      SELECT p.cluster_id, date_bin('1 hour', p.began_at, timestamptz '2000-01-01 00:00:00+00')
      FROM changed_new c JOIN fault_events p ON p.id = c.episode_id WHERE c.episode_id <> c.id
    ) t;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO fault_rollup_dirty (cluster_id, hour)
    SELECT t.cluster_id, t.hour FROM (
      SELECT cluster_id, date_bin('1 hour', began_at, timestamptz '2000-01-01 00:00:00+00') AS hour FROM changed_old
      UNION
      SELECT p.cluster_id, date_bin('1 hour', p.began_at, timestamptz '2000-01-01 00:00:00+00')
      FROM changed_old c JOIN fault_events p ON p.id = c.episode_id WHERE c.episode_id <> c.id
    ) t;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "fault_events_rollups_insert" AFTER INSERT ON "fault_events" REFERENCING NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION "fault_rollups_mark_dirty"();--> statement-breakpoint
CREATE TRIGGER "fault_events_rollups_update" AFTER UPDATE ON "fault_events" REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION "fault_rollups_mark_dirty"();--> statement-breakpoint
CREATE TRIGGER "fault_events_rollups_delete" AFTER DELETE ON "fault_events" REFERENCING OLD TABLE AS changed_old
  FOR EACH STATEMENT EXECUTE FUNCTION "fault_rollups_mark_dirty"();--> statement-breakpoint
-- Events stored before this migration: every hour they began in is stale until first read.
INSERT INTO "fault_rollup_dirty" (cluster_id, hour)
SELECT DISTINCT cluster_id, date_bin('1 hour', began_at, timestamptz '2000-01-01 00:00:00+00') FROM "fault_events";
