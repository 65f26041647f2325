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

/** Sends each message (as JSON) on `channel`; inside a transaction they are delivered when it commits. */
export async function notify(client: pg.PoolClient, channel: string, messages: unknown[]): Promise<void> {
  for (const message of messages) await client.query("select pg_notify($1, $2)", [channel, JSON.stringify(message)]);
}
