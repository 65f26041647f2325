CREATE UNLOGGED TABLE "event_stream_leases" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"instance_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "event_stream_leases_owner_idx" ON "event_stream_leases" USING btree ("owner","expires_at");--> statement-breakpoint
CREATE INDEX "event_stream_leases_expires_at_idx" ON "event_stream_leases" USING btree ("expires_at");