import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
import { connectDatabase, type DatabaseHandle } from "@/db/client";
import { adminQuery, withDatabase } from "./urls";

let current: (DatabaseHandle & { url: string; name: string }) | undefined;

/** The database of the running test file: a fresh, migrated copy made for it alone. */
export function testDatabase(): DatabaseHandle & { url: string; name: string } {
  if (!current) throw new Error("testDatabase() is only available inside integration tests (*.int.test.ts)");
  return current;
}

function onTestServer(statement: string): Promise<void> {
  return adminQuery(inject("databaseServerUrl"), statement);
}

export function registerDatabasePerFile(): void {
  beforeAll(async () => {
    const name = `rankscope_test_${randomBytes(6).toString("hex")}`;
    await onTestServer(`create database ${name} template ${inject("templateDatabase")}`);
    const url = withDatabase(inject("databaseServerUrl"), name);
    current = { ...connectDatabase(url, { max: 4 }), url, name };
  });
  afterAll(async () => {
    if (!current) return;
    await current.pool.end();
    await onTestServer(`drop database if exists ${current.name} with (force)`);
    current = undefined;
  });
}

/** An empty database (not migrated) for tests of start-up itself; dropped by the returned function. */
export async function createEmptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `rankscope_empty_${randomBytes(6).toString("hex")}`;
  await onTestServer(`create database ${name}`);
  return {
    url: withDatabase(inject("databaseServerUrl"), name),
    drop: () => onTestServer(`drop database if exists ${name} with (force)`),
  };
}
