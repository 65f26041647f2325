CREATE TABLE "rank_table_revisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rank_table_id" integer NOT NULL,
	"revision" integer NOT NULL,
	"text" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"author_type" text NOT NULL,
	"author_id" text,
	"author_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"summary" jsonb NOT NULL,
	CONSTRAINT "rank_table_revisions_table_revision" UNIQUE("rank_table_id","revision")
);
--> statement-breakpoint
CREATE TABLE "rank_tables" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"cluster_id" integer,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rank_tables_name_not_blank" CHECK (length(trim("rank_tables"."name")) > 0),
	CONSTRAINT "rank_tables_revision_positive" CHECK ("rank_tables"."revision" >= 1)
);
--> statement-breakpoint
ALTER TABLE "rank_table_revisions" ADD CONSTRAINT "rank_table_revisions_rank_table_id_rank_tables_id_fk" FOREIGN KEY ("rank_table_id") REFERENCES "public"."rank_tables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rank_tables" ADD CONSTRAINT "rank_tables_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rank_table_revisions_table_idx" ON "rank_table_revisions" USING btree ("rank_table_id");