import type pg from "pg";
import { inTransaction } from "../transaction";

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
 * held before. The owner's transaction-scoped advisory lock makes count-then-insert atomic across instances: two
 * streams opened at once through two instances cannot both take the last slot (the second counts after the first
 * commits, in a statement of its own, so it sees the first's row).
 */
export async function takeStreamLease(pool: pg.Pool, lease: StreamLeaseRequest): Promise<{ taken: boolean; held: number }> {
  return inTransaction(pool, async (client) => {
    await client.query("select pg_advisory_xact_lock(hashtextextended($1, 0))", [`event-stream-lease:${lease.owner}`]);
    const { rows } = await client.query<{ held: number; taken: boolean }>(
      `with live as (
         select count(*)::int as n from event_stream_leases where owner = $2 and expires_at > clock_timestamp()
       ), taken as (
         insert into event_stream_leases (id, owner, instance_id, expires_at)
         select $1, $2, $3, clock_timestamp() + make_interval(secs => $5) from live where live.n < $4
         returning id
       )
       select (select n from live) as held, exists (select 1 from taken) as taken`,
      [lease.id, lease.owner, lease.instanceId, lease.limit, lease.ttlSeconds],
    );
    return { held: rows[0]!.held, taken: rows[0]!.taken };
  });
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
