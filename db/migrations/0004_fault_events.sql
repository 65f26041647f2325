CREATE TYPE "public"."fault_kind" AS ENUM('gateway-probe-failure', 'roce-link-down', 'npu-network-fault', 'bus-device-fault', 'hccs-fault', 'npu-chip-fault', 'node-fault', 'hccl-error', 'job-rescheduled');--> statement-breakpoint
CREATE TYPE "public"."fault_level" AS ENUM('NotHandleFault', 'SubHealthFault', 'PreSeparateNPU', 'RestartRequest', 'RestartBusiness', 'FreeRestartNPU', 'RestartNPU', 'SeparateNPU', 'ManuallySeparateNPU');--> statement-breakpoint
CREATE TYPE "public"."fault_rule" AS ENUM('reported', 'within-fault-timeout', 'fault-duration', 'fault-frequency');--> statement-breakpoint
CREATE TYPE "public"."fault_source" AS ENUM('device-plugin', 'device-info-cm', 'hccl-log', 'scheduler', 'simulator', 'csv-import', 'api');--> statement-breakpoint
CREATE TYPE "public"."fault_target_kind" AS ENUM('cluster', 'super-pod', 'server', 'npu', 'die', 'link');--> statement-breakpoint
CREATE TABLE "device_info_snapshots" (
	"cluster_id" integer NOT NULL,
	"server_ref" integer NOT NULL,
	"node_name" text,
	"update_time" bigint NOT NULL,
	"check_code" text,
	"raw" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_info_snapshots_cluster_id_server_ref_pk" PRIMARY KEY("cluster_id","server_ref")
);
--> statement-breakpoint
CREATE TABLE "fault_events" (
	"id" text PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"target_kind" "fault_target_kind" NOT NULL,
	"target_key" text NOT NULL,
	"series_key" text NOT NULL,
	"super_pod_ref" integer,
	"server_ref" integer,
	"npu_index" integer,
	"device_ref" integer,
	"peer_device_ref" integer,
	"kind" "fault_kind" NOT NULL,
	"source" "fault_source" NOT NULL,
	"code" text,
	"phase" text,
	"reported_level" "fault_level" NOT NULL,
	"level" "fault_level" NOT NULL,
	"rule" "fault_rule" NOT NULL,
	"rule_at" timestamp (3) with time zone,
	"release_at" timestamp (3) with time zone,
	"episode_id" text NOT NULL,
	"began_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"job" text,
	"rank_table" text,
	"rank" integer,
	"message" text,
	"raw" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fault_events_end_after_begin" CHECK ("fault_events"."ended_at" is null or "fault_events"."ended_at" >= "fault_events"."began_at")
);
--> statement-breakpoint
CREATE TABLE "fault_settings" (
	"cluster_id" integer PRIMARY KEY NOT NULL,
	"escalation" jsonb NOT NULL,
	"retention_days" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_info_snapshots" ADD CONSTRAINT "device_info_snapshots_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fault_events" ADD CONSTRAINT "fault_events_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fault_settings" ADD CONSTRAINT "fault_settings_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fault_events_began_brin" ON "fault_events" USING brin ("began_at") WITH (pages_per_range=32);--> statement-breakpoint
CREATE INDEX "fault_events_series" ON "fault_events" USING btree ("cluster_id","series_key","began_at");--> statement-breakpoint
CREATE INDEX "fault_events_open" ON "fault_events" USING btree ("cluster_id","series_key") WHERE "fault_events"."ended_at" is null;