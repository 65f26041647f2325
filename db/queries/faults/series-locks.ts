import type pg from "pg";

/** Series locks: a key hashes to one of this many advisory locks, so a batch holds a bounded number of them. */
const seriesLockBuckets = 256;

/**
 * Serialises writers of the same series (same target and code) for the rest of the transaction, so two concurrent
 * batches never judge a series without seeing each other's events. Buckets are taken in order: no deadlocks.
 */
export async function lockSeries(client: pg.PoolClient, clusterId: number, keys: Iterable<string>): Promise<void> {
  const buckets = new Set<number>();
  for (const key of keys) buckets.add(bucketOf(`${clusterId}|${key}`));
  if (buckets.size === 0) return;
  await client.query("select pg_advisory_xact_lock(7406, b) from unnest($1::int[]) as b order by b", [[...buckets].sort((a, b) => a - b)]);
}

function bucketOf(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return (hash >>> 0) % seriesLockBuckets;
}

