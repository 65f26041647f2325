CREATE TYPE "public"."fabric_link_kind" AS ENUM('uplink', 'parameter');--> statement-breakpoint
CREATE TYPE "public"."fabric_plane_kind" AS ENUM('bus', 'parameter');--> statement-breakpoint
CREATE TYPE "public"."fabric_switch_kind" AS ENUM('bus-switch', 'node-chip');--> statement-breakpoint
ALTER TYPE "public"."fault_target_kind" ADD VALUE 'switch';--> statement-breakpoint
CREATE TABLE "fabric_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"plane_ref" integer NOT NULL,
	"kind" "fabric_link_kind" NOT NULL,
	"switch_ref" integer,
	"peer_switch_ref" integer,
	"server_ref" integer NOT NULL,
	"npu_index" integer,
	"ports" integer NOT NULL,
	CONSTRAINT "fabric_links_ports_positive" CHECK ("fabric_links"."ports" > 0)
);
--> statement-breakpoint
CREATE TABLE "fabric_planes" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"super_pod_ref" integer,
	"key" text NOT NULL,
	"kind" "fabric_plane_kind" NOT NULL,
	"plane_index" integer NOT NULL,
	"shape" text,
	CONSTRAINT "fabric_planes_cluster_key" UNIQUE("cluster_id","key"),
	CONSTRAINT "fabric_planes_cluster_id_id" UNIQUE("cluster_id","id")
);
--> statement-breakpoint
CREATE TABLE "fabric_switches" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"plane_ref" integer NOT NULL,
	"key" text NOT NULL,
	"kind" "fabric_switch_kind" NOT NULL,
	"switch_index" integer NOT NULL,
	"server_ref" integer,
	"ports" integer,
	CONSTRAINT "fabric_switches_cluster_key" UNIQUE("cluster_id","key"),
	CONSTRAINT "fabric_switches_cluster_id_id" UNIQUE("cluster_id","id"),
	CONSTRAINT "fabric_switches_node_chip_has_server" CHECK (("fabric_switches"."kind" = 'node-chip') = ("fabric_switches"."server_ref" is not null))
);
--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "fabric_profile" text;--> statement-breakpoint
ALTER TABLE "fabric_links" ADD CONSTRAINT "fabric_links_plane_same_cluster" FOREIGN KEY ("cluster_id","plane_ref") REFERENCES "public"."fabric_planes"("cluster_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fabric_links" ADD CONSTRAINT "fabric_links_server_same_cluster" FOREIGN KEY ("cluster_id","server_ref") REFERENCES "public"."servers"("cluster_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fabric_planes" ADD CONSTRAINT "fabric_planes_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fabric_planes" ADD CONSTRAINT "fabric_planes_super_pod_same_cluster" FOREIGN KEY ("cluster_id","super_pod_ref") REFERENCES "public"."super_pods"("cluster_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fabric_switches" ADD CONSTRAINT "fabric_switches_plane_same_cluster" FOREIGN KEY ("cluster_id","plane_ref") REFERENCES "public"."fabric_planes"("cluster_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fabric_switches" ADD CONSTRAINT "fabric_switches_server_same_cluster" FOREIGN KEY ("cluster_id","server_ref") REFERENCES "public"."servers"("cluster_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fabric_links_cluster_kind" ON "fabric_links" USING btree ("cluster_id","kind");--> statement-breakpoint
CREATE INDEX "fabric_links_switch_ref" ON "fabric_links" USING btree ("switch_ref");--> statement-breakpoint
CREATE INDEX "fabric_links_peer_switch_ref" ON "fabric_links" USING btree ("peer_switch_ref");--> statement-breakpoint
CREATE INDEX "fabric_links_server_ref" ON "fabric_links" USING btree ("server_ref");--> statement-breakpoint
CREATE INDEX "fabric_switches_server_ref" ON "fabric_switches" USING btree ("server_ref");--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_fabric_profile_format" CHECK ("clusters"."fabric_profile" ~ '^[a-z0-9][a-z0-9-]{0,47}$');