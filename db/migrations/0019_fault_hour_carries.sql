CREATE TABLE "fault_hour_carries" (
	"cluster_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"edge" timestamp with time zone NOT NULL,
	"kind" "fault_kind" NOT NULL,
	"level" "fault_level" NOT NULL,
	"super_pod_ref" integer,
	"after_ms" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fault_hour_carries" ADD CONSTRAINT "fault_hour_carries_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fault_hour_carries_hour" ON "fault_hour_carries" USING btree ("cluster_id","hour");--> statement-breakpoint
CREATE INDEX "fault_hour_carries_edge" ON "fault_hour_carries" USING btree ("cluster_id","edge");--> statement-breakpoint
-- Hours rolled up before this migration have no carries: the hours holding a closed event on a die that runs past
-- the end of its hour are stale until first read.
INSERT INTO "fault_rollup_dirty" (cluster_id, hour)
SELECT DISTINCT cluster_id, date_bin('1 hour', began_at, timestamptz '2000-01-01 00:00:00+00') FROM "fault_events"
WHERE device_ref IS NOT NULL AND ended_at > date_bin('1 hour', began_at, timestamptz '2000-01-01 00:00:00+00') + interval '1 hour';
