ALTER TYPE "public"."link_kind" ADD VALUE 'net-layer-0';--> statement-breakpoint
ALTER TYPE "public"."link_kind" ADD VALUE 'net-layer-1';--> statement-breakpoint
CREATE TABLE "device_net_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"device_ref" integer NOT NULL,
	"net_layer" integer NOT NULL,
	"net_instance_id" text NOT NULL,
	"net_type" text NOT NULL,
	"position" integer NOT NULL,
	"addr_type" text NOT NULL,
	"addr" text NOT NULL,
	"ports" text[] NOT NULL,
	"plane_id" text,
	CONSTRAINT "device_net_addresses_net_layer_range" CHECK ("device_net_addresses"."net_layer" between 0 and 7),
	CONSTRAINT "device_net_addresses_position_range" CHECK ("device_net_addresses"."position" between 0 and 23),
	CONSTRAINT "device_net_addresses_addr_length" CHECK (length("device_net_addresses"."addr") between 1 and 256)
);
--> statement-breakpoint
ALTER TABLE "servers" DROP CONSTRAINT "servers_model_known";--> statement-breakpoint
ALTER TABLE "npus" DROP CONSTRAINT "npus_index_range";--> statement-breakpoint
ALTER TABLE "devices" DROP CONSTRAINT "devices_device_id_range";--> statement-breakpoint
ALTER TABLE "device_net_addresses" ADD CONSTRAINT "device_net_addresses_device_same_cluster" FOREIGN KEY ("cluster_id","device_ref") REFERENCES "public"."devices"("cluster_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_net_addresses_device_ref" ON "device_net_addresses" USING btree ("device_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "device_net_addresses_cluster_eid" ON "device_net_addresses" USING btree ("cluster_id",lower("addr")) WHERE "device_net_addresses"."addr_type" = 'EID';--> statement-breakpoint
ALTER TABLE "servers" ADD CONSTRAINT "servers_model_known" CHECK ("servers"."model" in ('Atlas 800T A3', 'Atlas 800T A2', 'Atlas 950'));--> statement-breakpoint
ALTER TABLE "npus" ADD CONSTRAINT "npus_index_range" CHECK ("npus"."npu_index" between 0 and 64);--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_device_id_range" CHECK ("devices"."device_id" between 0 and 64);