import type pg from "pg";

/** Runs `work` in a transaction on one pooled client; NOTIFYs sent in it go out when it commits. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    const result = await work(client);
    await client.query("commit");
    return result;
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** PostgreSQL's deadlock_detected: the transaction was rolled back and may simply run again. */
const deadlockDetected = "40P01";
const deadlockAttempts = 3;

/** `inTransaction`, run again (up to 3 times) when PostgreSQL rolled it back to break a deadlock. */
export async function inRetriedTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(pool, work);
    } catch (error) {
      if (attempt >= deadlockAttempts || (error as { code?: unknown }).code !== deadlockDetected) throw error;
    }
  }
}

/**
 * The SQL of a NOTIFY payload: the JSON object `json` (an SQL expression of type text) with the sending transaction's
 * id added as `xid` (text). NOTIFYs are delivered only after commit, so a listener that hears it knows the change is
 * visible in any snapshot that sees that id (lib/xact-snapshot.ts; server/faults/read-cache.ts).
 */
export const withSenderXid = (json: string): string => `(${json}::jsonb || jsonb_build_object('xid', pg_current_xact_id()::text))::text`;

/** Sends each message (a JSON object, with `xid` added: withSenderXid) on `channel`; inside a transaction they are delivered when it commits. */
export async function notify(client: pg.PoolClient, channel: string, messages: object[]): Promise<void> {
  for (const message of messages) await client.query(`select pg_notify($1, ${withSenderXid("$2")})`, [channel, JSON.stringify(message)]);
}
