import pg from "pg";

/** The same server URL pointing at another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Runs one statement (CREATE / DROP DATABASE) on its own connection to the test server. */
export async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * The same URL with every session read-only (default_transaction_read_only, sent at connect), for pools that stand in
 * for a replica. Setting it with a query on the pool's "connect" event instead runs that query beside the pool's first
 * one on the same client (pg's "client is already executing a query" deprecation).
 */
export function readOnlyUrl(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("options", "-c default_transaction_read_only=on");
  return parsed.toString();
}
