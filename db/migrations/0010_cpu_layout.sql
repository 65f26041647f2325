CREATE TABLE "server_cpu_layouts" (
	"cluster_id" integer NOT NULL,
	"server_id" text NOT NULL,
	"lscpu_text" text NOT NULL,
	"topo_text" text,
	"layout" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "server_cpu_layouts_pk" PRIMARY KEY("cluster_id","server_id"),
	CONSTRAINT "server_cpu_layouts_lscpu_length" CHECK (length("server_cpu_layouts"."lscpu_text") between 1 and 65536),
	CONSTRAINT "server_cpu_layouts_topo_length" CHECK ("server_cpu_layouts"."topo_text" is null or length("server_cpu_layouts"."topo_text") <= 65536)
);
--> statement-breakpoint
ALTER TABLE "server_cpu_layouts" ADD CONSTRAINT "server_cpu_layouts_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;