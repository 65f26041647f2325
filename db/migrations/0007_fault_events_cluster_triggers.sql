ALTER TABLE "fault_events" DROP CONSTRAINT "fault_events_cluster_id_clusters_id_fk";--> statement-breakpoint
-- fault_events.cluster_id → clusters.id without the foreign key, whose row trigger locked the cluster row (FOR KEY
-- SHARE) once per inserted event, as a new MultiXact whenever batches ran in parallel. Once per statement instead:
-- the clusters a statement newly refers to are locked as the key locked them (a cluster cannot be deleted under
-- events being written), and one that does not exist (any more) refuses the statement with the key's SQLSTATE.
CREATE FUNCTION "fault_events_check_cluster"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  wanted integer[];
  missing integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT cluster_id) INTO wanted FROM changed_new;
  ELSE
    SELECT array_agg(cluster_id) INTO wanted FROM (SELECT cluster_id FROM changed_new EXCEPT SELECT cluster_id FROM changed_old) c;
  END IF;
  IF wanted IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM FROM clusters WHERE id = ANY (wanted) ORDER BY id FOR KEY SHARE;
  -- A statement of its own, so with a snapshot of its own: a cluster deleted while the lock waited is gone here.
  SELECT w INTO missing FROM unnest(wanted) w WHERE NOT EXISTS (SELECT FROM clusters WHERE id = w) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'insert or update on table "fault_events" violates foreign key constraint "fault_events_cluster_id_clusters_id_fk"'
      USING ERRCODE = 'foreign_key_violation', DETAIL = format('Key (cluster_id)=(%s) is not present in table "clusters".', missing),
        TABLE = 'fault_events', CONSTRAINT = 'fault_events_cluster_id_clusters_id_fk';
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "fault_events_cluster_insert" AFTER INSERT ON "fault_events" REFERENCING NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION "fault_events_check_cluster"();--> statement-breakpoint
CREATE TRIGGER "fault_events_cluster_update" AFTER UPDATE ON "fault_events" REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION "fault_events_check_cluster"();--> statement-breakpoint
-- The key's ON DELETE CASCADE (and its refusal of a cluster id change that would leave events behind).
CREATE FUNCTION "clusters_fault_events_cascade"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM fault_events WHERE cluster_id IN (SELECT id FROM gone);
  ELSIF EXISTS (SELECT FROM fault_events WHERE cluster_id IN (SELECT id FROM gone EXCEPT SELECT id FROM kept)) THEN
    RAISE EXCEPTION 'update on table "clusters" violates foreign key constraint "fault_events_cluster_id_clusters_id_fk" on table "fault_events"'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'clusters', CONSTRAINT = 'fault_events_cluster_id_clusters_id_fk';
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "clusters_fault_events_delete" AFTER DELETE ON "clusters" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION "clusters_fault_events_cascade"();--> statement-breakpoint
CREATE TRIGGER "clusters_fault_events_update" AFTER UPDATE ON "clusters" REFERENCING OLD TABLE AS gone NEW TABLE AS kept
  FOR EACH STATEMENT EXECUTE FUNCTION "clusters_fault_events_cascade"();
