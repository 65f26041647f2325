import type pg from "pg";

/**
 * Leases of live event streams (event_stream_leases): how many streams a user or token holds on all instances
 * together. Times are the database's clock, so instances whose clocks differ still agree on what has expired.
 */
export interface StreamLeaseRequest {
  /** A new random UUID: the lease's id. */
  id: string;
  /** `user:<id>` or `token:<id>`. */
  owner: string;
  instanceId: string;
  /** The most live leases `owner` may hold. */
  limit: number;
  ttlSeconds: number;
}

/**
 * Takes a lease for `owner` when it holds fewer than `limit` live ones; answers whether it did and how many the owner
 * held before. One statement (take_event_stream_lease, migration 0023): the owner's transaction-scoped advisory lock
 * makes count-then-insert atomic across instances, so two streams opened at once through two instances cannot both
 * take the last slot (the second counts after the first commits, and sees its row). One round trip, not a
 * transaction's four: opening streams is bound by the server's CPU, much of it node-postgres per query.
 */
export async function takeStreamLease(pool: pg.Pool, lease: StreamLeaseRequest): Promise<{ taken: boolean; held: number }> {
  const { rows } = await pool.query<{ held: number; taken: boolean }>("select held, taken from take_event_stream_lease($1, $2, $3, $4, $5)", [
    lease.id,
    lease.owner,
    lease.instanceId,
    lease.limit,
    lease.ttlSeconds,
  ]);
  return { held: rows[0]!.held, taken: rows[0]!.taken };
}

export async function dropStreamLease(pool: pg.Pool, id: string): Promise<void> {
  await pool.query("delete from event_stream_leases where id = $1", [id]);
}

/**
 * One instance's heartbeat: extends the leases of its open streams (`live`) by `ttlSeconds`, and deletes its own
 * rows that are not among them (a release whose delete failed, say while PostgreSQL restarted) and every expired
 * row (those of an instance that was killed). One statement.
 */
export async function renewStreamLeases(pool: pg.Pool, instanceId: string, live: string[], ttlSeconds: number): Promise<void> {
  await pool.query(
    `with renewed as (
       update event_stream_leases set expires_at = clock_timestamp() + make_interval(secs => $3) where id = any($1::uuid[]) returning id
     )
     delete from event_stream_leases
     where not (id = any($1::uuid[])) and (instance_id = $2 or expires_at < clock_timestamp())`,
    [live, instanceId, ttlSeconds],
  );
}
