ALTER TABLE "rank_table_revisions" ALTER COLUMN "text" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "rank_table_revisions" ADD COLUMN "text_gzip" "bytea";--> statement-breakpoint
ALTER TABLE "rank_table_revisions" ADD COLUMN "text_bytes" bigint;--> statement-breakpoint
ALTER TABLE "rank_table_revisions" ADD CONSTRAINT "rank_table_revisions_text_stored_once" CHECK (("rank_table_revisions"."text" is null) <> ("rank_table_revisions"."text_gzip" is null) and ("rank_table_revisions"."text_gzip" is null) = ("rank_table_revisions"."text_bytes" is null));