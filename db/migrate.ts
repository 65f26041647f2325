import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type pg from "pg";

export const defaultMigrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/** Any constant works; it only has to be the same for every Rankscope instance sharing a database. */
const migrationLockKey = 7_302_114_519;

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

export interface Migration {
  tag: string;
  createdAt: number;
  hash: string;
  statements: string[];
}

export class MigrationError extends Error {
  constructor(
    readonly migration: string,
    cause: unknown,
  ) {
    super(`migration ${migration} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "MigrationError";
  }
}

export async function readMigrations(folder = defaultMigrationsFolder): Promise<Migration[]> {
  const journal = JSON.parse(await readFile(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  return Promise.all(
    journal.entries.map(async (entry) => {
      const sql = await readFile(path.join(folder, `${entry.tag}.sql`), "utf8");
      return {
        tag: entry.tag,
        createdAt: entry.when,
        hash: createHash("sha256").update(sql).digest("hex"),
        statements: sql.split("--> statement-breakpoint").map((s) => s.trim()).filter(Boolean),
      };
    }),
  );
}

/**
 * Applies pending drizzle-kit migrations. Uses drizzle's own bookkeeping table, so `drizzle-kit migrate` and this
 * agree on what is applied; unlike drizzle's migrator it names the migration that failed. An advisory lock makes
 * instances that start together take turns, and all pending migrations run in one transaction, so a failure leaves
 * the database exactly as it was.
 */
export async function migrate(pool: pg.Pool, folder = defaultMigrationsFolder): Promise<string[]> {
  const migrations = await readMigrations(folder);
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [migrationLockKey]);
    await client.query("create schema if not exists drizzle");
    await client.query(
      "create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)",
    );
    const { rows } = await client.query<{ created_at: string | null }>(
      "select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1",
    );
    const lastApplied = Number(rows[0]?.created_at ?? 0);
    const pending = migrations.filter((m) => m.createdAt > lastApplied);
    if (pending.length === 0) return [];

    await client.query("begin");
    for (const migration of pending) {
      try {
        for (const statement of migration.statements) await client.query(statement);
        await client.query("insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)", [
          migration.hash,
          migration.createdAt,
        ]);
      } catch (error) {
        await client.query("rollback");
        throw new MigrationError(migration.tag, error);
      }
    }
    await client.query("commit");
    return pending.map((m) => m.tag);
  } finally {
    await client.query("select pg_advisory_unlock($1)", [migrationLockKey]).catch(() => {});
    client.release();
  }
}
