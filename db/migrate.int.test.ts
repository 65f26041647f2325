import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEmptyDatabase } from "@/test/database";
import { connectDatabase, type DatabaseHandle } from "./client";
import { defaultMigrationsFolder, migrate, MigrationError, readMigrations } from "./migrate";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function emptyDatabase(): Promise<DatabaseHandle> {
  const database = await createEmptyDatabase();
  const handle = connectDatabase(database.url, { max: 2 });
  cleanups.push(database.drop, () => handle.pool.end());
  return handle;
}

async function tableExists(handle: DatabaseHandle, name: string): Promise<boolean> {
  const { rows } = await handle.pool.query("select to_regclass($1) is not null as present", [name]);
  return rows[0].present;
}

describe("migrate", () => {
  it("applies every pending migration once, even when two instances start together", async () => {
    const first = await emptyDatabase();
    const second = connectDatabase(first.pool.options.connectionString!, { max: 2 });
    cleanups.push(() => second.pool.end());
    const all = (await readMigrations()).map((m) => m.tag);

    const results = await Promise.all([migrate(first.pool), migrate(second.pool)]);
    expect(results.flat().sort()).toEqual(all.sort());
    expect(results.some((applied) => applied.length === 0)).toBe(true);
    expect(await tableExists(first, "devices")).toBe(true);
    const { rows } = await first.pool.query("select count(*)::int as n from drizzle.__drizzle_migrations");
    expect(rows[0].n).toBe(all.length);
    expect(await migrate(first.pool)).toEqual([]);
  });

  it("names the migration that failed and leaves the database as it was", async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), "rankscope-migrations-"));
    await cp(defaultMigrationsFolder, folder, { recursive: true });
    const journalPath = path.join(folder, "meta", "_journal.json");
    const journal = JSON.parse(await readFile(journalPath, "utf8"));
    const last = journal.entries.at(-1);
    journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag: "9999_broken" });
    await writeFile(journalPath, JSON.stringify(journal));
    await writeFile(
      path.join(folder, "9999_broken.sql"),
      "create table half_done (id int);\n--> statement-breakpoint\nselect * from no_such_table;",
    );
    const handle = await emptyDatabase();

    const error = await migrate(handle.pool, folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).migration).toBe("9999_broken");
    expect((error as Error).message).toMatch(/9999_broken.*relation "no_such_table" does not exist/);
    expect(await tableExists(handle, "half_done")).toBe(false);
    expect(await tableExists(handle, "devices")).toBe(false);
    const { rows } = await handle.pool.query("select count(*)::int as n from drizzle.__drizzle_migrations");
    expect(rows[0].n).toBe(0);
  });
});
