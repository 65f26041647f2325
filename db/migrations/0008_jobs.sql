CREATE TYPE "public"."job_rank_match" AS ENUM('server-and-device', 'device-ip');--> statement-breakpoint
CREATE TYPE "public"."job_rank_unmatched" AS ENUM('no-rank', 'unknown-server', 'unknown-device');--> statement-breakpoint
CREATE TYPE "public"."job_source" AS ENUM('rings-config', 'rank-table', 'api');--> statement-breakpoint
CREATE TYPE "public"."job_state" AS ENUM('pending', 'running', 'succeeded', 'failed', 'unknown');--> statement-breakpoint
CREATE TABLE "job_diagnoses" (
	"id" serial PRIMARY KEY NOT NULL,
	"job_id" integer NOT NULL,
	"phase" text NOT NULL,
	"report" jsonb NOT NULL,
	"files" integer NOT NULL,
	"bytes" bigint NOT NULL,
	"fault_event_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"author_type" text NOT NULL,
	"author_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_ranks" (
	"job_id" integer NOT NULL,
	"position" integer NOT NULL,
	"rank" integer,
	"server_id" text,
	"host_ip" text,
	"device_id" integer,
	"device_ip" text,
	"die_key" text,
	"match" "job_rank_match",
	"unmatched" "job_rank_unmatched",
	"device_ip_differs" boolean DEFAULT false NOT NULL,
	CONSTRAINT "job_ranks_job_id_position_pk" PRIMARY KEY("job_id","position")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"name" text NOT NULL,
	"namespace" text DEFAULT 'default' NOT NULL,
	"state" "job_state" NOT NULL,
	"source" "job_source" NOT NULL,
	"started_at" timestamp (3) with time zone,
	"ended_at" timestamp (3) with time zone,
	"rank_table_id" integer,
	"rank_table_revision" integer,
	"rank_table_text" text,
	"rank_table_status" text,
	"config_version" text,
	"labels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"environment" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"placement" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_cluster_namespace_name" UNIQUE("cluster_id","namespace","name"),
	CONSTRAINT "jobs_name_not_blank" CHECK (length(trim("jobs"."name")) > 0),
	CONSTRAINT "jobs_ended_after_started" CHECK ("jobs"."ended_at" is null or "jobs"."started_at" is null or "jobs"."ended_at" >= "jobs"."started_at")
);
--> statement-breakpoint
ALTER TABLE "job_diagnoses" ADD CONSTRAINT "job_diagnoses_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_ranks" ADD CONSTRAINT "job_ranks_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_rank_table_id_rank_tables_id_fk" FOREIGN KEY ("rank_table_id") REFERENCES "public"."rank_tables"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "job_diagnoses_job_idx" ON "job_diagnoses" USING btree ("job_id","created_at");--> statement-breakpoint
CREATE INDEX "job_ranks_die_key" ON "job_ranks" USING btree ("die_key") WHERE "job_ranks"."die_key" is not null;