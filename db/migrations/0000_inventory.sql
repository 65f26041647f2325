CREATE TYPE "public"."cluster_mode" AS ENUM('super-pod', 'ai-server');--> statement-breakpoint
CREATE TYPE "public"."link_kind" AS ENUM('backup-rail', 'hccs', 'roce');--> statement-breakpoint
CREATE TABLE "clusters" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"mode" "cluster_mode" NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"inventory_revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clusters_slug_unique" UNIQUE("slug"),
	CONSTRAINT "clusters_slug_format" CHECK ("clusters"."slug" ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
	CONSTRAINT "clusters_name_not_blank" CHECK (length(trim("clusters"."name")) > 0)
);
--> statement-breakpoint
CREATE TABLE "super_pods" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"super_pod_id" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "super_pods_cluster_super_pod_id" UNIQUE("cluster_id","super_pod_id"),
	CONSTRAINT "super_pods_cluster_id_id" UNIQUE("cluster_id","id"),
	CONSTRAINT "super_pods_id_length" CHECK (length("super_pods"."super_pod_id") between 1 and 64)
);
--> statement-breakpoint
CREATE TABLE "servers" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"super_pod_ref" integer,
	"server_id" text NOT NULL,
	"host_ip" "inet",
	"model" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "servers_cluster_server_id" UNIQUE("cluster_id","server_id"),
	CONSTRAINT "servers_cluster_id_id" UNIQUE("cluster_id","id"),
	CONSTRAINT "servers_server_id_length" CHECK (length("servers"."server_id") between 1 and 64),
	CONSTRAINT "servers_model_known" CHECK ("servers"."model" in ('Atlas 800T A3', 'Atlas 800T A2'))
);
--> statement-breakpoint
CREATE TABLE "npus" (
	"id" serial PRIMARY KEY NOT NULL,
	"server_ref" integer NOT NULL,
	"npu_index" integer NOT NULL,
	CONSTRAINT "npus_server_index" UNIQUE("server_ref","npu_index"),
	CONSTRAINT "npus_server_id" UNIQUE("server_ref","id"),
	CONSTRAINT "npus_index_range" CHECK ("npus"."npu_index" between 0 and 15)
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"server_ref" integer NOT NULL,
	"npu_ref" integer NOT NULL,
	"device_id" integer NOT NULL,
	"die_index" integer NOT NULL,
	"super_device_id" bigint,
	"device_ip" "inet",
	"device_port" integer,
	"backup_device_ip" "inet",
	"backup_device_port" integer,
	"host_port" integer,
	CONSTRAINT "devices_server_device_id" UNIQUE("server_ref","device_id"),
	CONSTRAINT "devices_cluster_device_ip" UNIQUE("cluster_id","device_ip"),
	CONSTRAINT "devices_cluster_id_id" UNIQUE("cluster_id","id"),
	CONSTRAINT "devices_device_id_range" CHECK ("devices"."device_id" between 0 and 15),
	CONSTRAINT "devices_die_index_range" CHECK ("devices"."die_index" in (0, 1)),
	CONSTRAINT "devices_super_device_id_range" CHECK ("devices"."super_device_id" >= 0),
	CONSTRAINT "devices_device_port_range" CHECK ("devices"."device_port" between 1 and 65535),
	CONSTRAINT "devices_backup_device_port_range" CHECK ("devices"."backup_device_port" between 1 and 65535),
	CONSTRAINT "devices_host_port_range" CHECK ("devices"."host_port" between 1 and 65535),
	CONSTRAINT "devices_backup_ip_not_own" CHECK ("devices"."backup_device_ip" is distinct from "devices"."device_ip" or "devices"."device_ip" is null)
);
--> statement-breakpoint
CREATE TABLE "links" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"kind" "link_kind" NOT NULL,
	"source_device" integer NOT NULL,
	"target_device" integer NOT NULL,
	CONSTRAINT "links_kind_pair" UNIQUE("kind","source_device","target_device"),
	CONSTRAINT "links_ordered_pair" CHECK ("links"."source_device" < "links"."target_device")
);
--> statement-breakpoint
ALTER TABLE "super_pods" ADD CONSTRAINT "super_pods_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servers" ADD CONSTRAINT "servers_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servers" ADD CONSTRAINT "servers_super_pod_same_cluster" FOREIGN KEY ("cluster_id","super_pod_ref") REFERENCES "public"."super_pods"("cluster_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "npus" ADD CONSTRAINT "npus_server_ref_servers_id_fk" FOREIGN KEY ("server_ref") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_server_same_cluster" FOREIGN KEY ("cluster_id","server_ref") REFERENCES "public"."servers"("cluster_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_npu_same_server" FOREIGN KEY ("server_ref","npu_ref") REFERENCES "public"."npus"("server_ref","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "links" ADD CONSTRAINT "links_source_same_cluster" FOREIGN KEY ("cluster_id","source_device") REFERENCES "public"."devices"("cluster_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "links" ADD CONSTRAINT "links_target_same_cluster" FOREIGN KEY ("cluster_id","target_device") REFERENCES "public"."devices"("cluster_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "servers_super_pod_ref" ON "servers" USING btree ("super_pod_ref");--> statement-breakpoint
CREATE INDEX "devices_npu_ref" ON "devices" USING btree ("npu_ref");--> statement-breakpoint
CREATE INDEX "links_cluster_kind" ON "links" USING btree ("cluster_id","kind");--> statement-breakpoint
CREATE INDEX "links_source_device" ON "links" USING btree ("source_device");--> statement-breakpoint
CREATE INDEX "links_target_device" ON "links" USING btree ("target_device");