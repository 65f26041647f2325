import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { connectDatabase } from "@/db/client";
import { startEmbeddedPostgres, type EmbeddedServer } from "@/db/embedded";
import { migrate } from "@/db/migrate";
import { withDatabase } from "./urls";

declare module "vitest" {
  export interface ProvidedContext {
    /** A server URL (any database) on which test files may create and drop databases. */
    databaseServerUrl: string;
    /** A migrated database that every test file's database is copied from. */
    templateDatabase: string;
  }
}

/**
 * One PostgreSQL per run: TEST_DATABASE_URL when set, otherwise a throwaway embedded server. The schema is
 * migrated once into a template; each test file then gets its own copy (CREATE DATABASE … TEMPLATE), which is fast
 * and keeps files from seeing each other's rows.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedServer | undefined;
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "rankscope-test-pg-"));
    embedded = await startEmbeddedPostgres({ dataDir, persistent: false });
    serverUrl = embedded.url("postgres");
  }
  const template = `rankscope_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`create database ${template}`);
  const handle = connectDatabase(withDatabase(serverUrl, template), { max: 1 });
  await migrate(handle.pool);
  await handle.pool.end();

  project.provide("databaseServerUrl", serverUrl);
  project.provide("templateDatabase", template);

  return async () => {
    await admin.query(`drop database if exists ${template} with (force)`);
    await admin.end();
    await embedded?.stop();
  };
}
