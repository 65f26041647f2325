import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { adminQuery, withDatabase } from "@/test/urls";

/**
 * A database for one run of a production server (the e2e tests, the hostile-input suite): a fresh database on
 * TEST_DATABASE_URL's server, or, without one, an empty data directory for the embedded PostgreSQL. `env` goes to
 * scripts/serve.ts; `cleanup` drops or deletes it.
 */
export async function throwawayDatabase(prefix: string): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  const testServer = process.env.TEST_DATABASE_URL;
  if (testServer) {
    const name = `${prefix}_${randomBytes(6).toString("hex")}`;
    await adminQuery(testServer, `create database ${name}`);
    return { env: { DATABASE_URL: withDatabase(testServer, name) }, cleanup: () => adminQuery(testServer, `drop database if exists ${name} with (force)`) };
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${prefix.replace(/_/g, "-")}-pg-`));
  return { env: { DATABASE_URL: "", RANKSCOPE_DATA_DIR: dataDir }, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
}
