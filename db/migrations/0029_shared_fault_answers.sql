-- Fault answers (the timeline, statistics and health of a cluster) computed by one instance and served by every
-- instance whose heard changes they cover (server/faults/read-cache.ts, db/queries/faults/shared-answers.ts).
-- UNLOGGED: nothing is written to the WAL (a day's timeline is ~1 MB gzipped, computed again after every batch), so it
-- is not replicated either: it lives on the primary, and a crash empties it, which only costs a computation.
-- Kept out of the drizzle schema (drizzle-kit cannot say UNLOGGED): read and written with plain SQL.
CREATE UNLOGGED TABLE "shared_fault_answers" (
	"key" text PRIMARY KEY NOT NULL,
	"snapshot" pg_snapshot NOT NULL,
	"computed_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"headers" jsonb NOT NULL,
	"json_bytes" integer NOT NULL,
	"gzip" bytea NOT NULL
);--> statement-breakpoint
-- Gzip bytes do not compress again: stored out of line without PostgreSQL trying (pglz) first.
ALTER TABLE "shared_fault_answers" ALTER COLUMN "gzip" SET STORAGE EXTERNAL;--> statement-breakpoint
CREATE INDEX "shared_fault_answers_computed_at" ON "shared_fault_answers" ("computed_at");
--> statement-breakpoint
-- The computation of a key under way (its holder has the key's advisory lock), with the snapshot it reads from: an
-- instance waits for it only when that snapshot sees what it heard, and otherwise computes in parallel.
CREATE UNLOGGED TABLE "shared_fault_computing" (
	"key" text PRIMARY KEY NOT NULL,
	"snapshot" pg_snapshot NOT NULL,
	"started_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
