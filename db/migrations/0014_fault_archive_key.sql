-- The archive is keyed by event id, so an event archived twice (taken in again after archiving, archived again) is
-- stored once: retention's insert says ON CONFLICT (id) DO NOTHING. Copies archived before this keep the first.
DELETE FROM "fault_event_archive" a USING "fault_event_archive" b
WHERE a."id" = b."id" AND (a."archived_at", a.ctid) > (b."archived_at", b.ctid);--> statement-breakpoint
ALTER TABLE "fault_event_archive" ADD CONSTRAINT "fault_event_archive_pk" PRIMARY KEY ("id");
