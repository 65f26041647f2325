CREATE TABLE "fault_day_code_rollups" (
	"cluster_id" integer NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"code" text NOT NULL,
	"events" integer NOT NULL,
	"closed_ms" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fault_day_code_rollups" ADD CONSTRAINT "fault_day_code_rollups_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fault_day_code_rollups_day" ON "fault_day_code_rollups" USING btree ("cluster_id","day");--> statement-breakpoint
CREATE INDEX "fault_events_job" ON "fault_events" USING btree ("cluster_id","job","began_at") WHERE "fault_events"."job" is not null;--> statement-breakpoint
-- Days rolled up before this migration have no code rows: every hour with events is stale until first read.
INSERT INTO "fault_rollup_dirty" (cluster_id, hour)
SELECT DISTINCT cluster_id, date_bin('1 hour', began_at, timestamptz '2000-01-01 00:00:00+00') FROM "fault_events";
