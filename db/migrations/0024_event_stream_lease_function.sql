-- Takes a lease on a live event stream for an owner (user or token) when it holds fewer than p_limit live ones, in
-- one statement (db/queries/event-stream-leases.ts): the owner's transaction-scoped advisory lock serialises
-- count-then-insert across instances, and each statement of a volatile function sees what committed before it, so
-- a second caller waiting on the lock counts the first one's row. The lock is released when the calling statement's
-- transaction commits, after the row is visible.
CREATE FUNCTION take_event_stream_lease(p_id uuid, p_owner text, p_instance text, p_limit integer, p_ttl_seconds double precision, OUT held integer, OUT taken boolean)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('event-stream-lease:' || p_owner, 0));
  SELECT count(*)::integer INTO held FROM event_stream_leases WHERE owner = p_owner AND expires_at > clock_timestamp();
  taken := held < p_limit;
  IF taken THEN
    INSERT INTO event_stream_leases (id, owner, instance_id, expires_at)
    VALUES (p_id, p_owner, p_instance, clock_timestamp() + make_interval(secs => p_ttl_seconds));
  END IF;
END
$$;
