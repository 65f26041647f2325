-- The hours a change to fault_events makes stale (0005): each changed row's hour and, for a continuation, its
-- fault's first event's hour. That first event was looked up by id for every continuation; when it is itself among
-- the changed rows its hour is already marked (the first part of the union, with the same began_at), so only the
-- others are looked up, each once. A 20,000-event judgement of the faults bench changed 8,570 continuations whose
-- first events were 663 rows outside the batch: the trigger took 132 ms of that statement, mostly those lookups
-- (auto_explain, issue 20). The hours marked are the same as before.
CREATE OR REPLACE FUNCTION "fault_rollups_mark_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO fault_rollup_dirty (cluster_id, hour)
    SELECT t.cluster_id, t.hour FROM (
      SELECT cluster_id, date_bin('1 hour', began_at, timestamptz '2000-01-01 00:00:00+00') AS hour FROM changed_new
      UNION
      SELECT p.cluster_id, date_bin('1 hour', p.began_at, timestamptz '2000-01-01 00:00:00+00')
      FROM (
        SELECT DISTINCT c.episode_id FROM changed_new c
        WHERE c.episode_id <> c.id AND NOT EXISTS (SELECT FROM changed_new f WHERE f.id = c.episode_id)
      ) c JOIN fault_events p ON p.id = c.episode_id
    ) t;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    -- A first event among the old rows is among the new ones too (an update, marked above) or gone (a delete).
    INSERT INTO fault_rollup_dirty (cluster_id, hour)
    SELECT t.cluster_id, t.hour FROM (
      SELECT cluster_id, date_bin('1 hour', began_at, timestamptz '2000-01-01 00:00:00+00') AS hour FROM changed_old
      UNION
      SELECT p.cluster_id, date_bin('1 hour', p.began_at, timestamptz '2000-01-01 00:00:00+00')
      FROM (
        SELECT DISTINCT c.episode_id FROM changed_old c
        WHERE c.episode_id <> c.id AND NOT EXISTS (SELECT FROM changed_old f WHERE f.id = c.episode_id)
      ) c JOIN fault_events p ON p.id = c.episode_id
    ) t;
  END IF;
  RETURN NULL;
END
$$;
