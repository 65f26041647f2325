import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { EmbeddedPostgresInUseError, startEmbeddedPostgres } from "./embedded";

const dataDir = await mkdtemp(path.join(os.tmpdir(), "rankscope-embedded-"));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function query(url: string, statement: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement)).rows;
  } finally {
    await client.end();
  }
}

function postgresRunningOn(dir: string): boolean {
  const processes = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
  return processes.split("\n").some((line) => line.includes("postgres") && line.includes(`-D ${dir}`));
}

describe("embedded PostgreSQL", () => {
  it("keeps its data across restarts and leaves no server behind when stopped", async () => {
    const first = await startEmbeddedPostgres({ dataDir });
    expect(first.created).toBe(true);
    await query(first.url(), "create table kept (note text); insert into kept values ('still here')");
    await first.stop();
    expect(postgresRunningOn(dataDir)).toBe(false);

    const second = await startEmbeddedPostgres({ dataDir });
    expect(second.created).toBe(false);
    expect(await query(second.url(), "select note from kept")).toEqual([{ note: "still here" }]);
    await second.stop();
    expect(postgresRunningOn(dataDir)).toBe(false);
  });

  it("refuses a second instance on the same data directory and says which process holds it", async () => {
    const running = await startEmbeddedPostgres({ dataDir });
    try {
      const error = await startEmbeddedPostgres({ dataDir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EmbeddedPostgresInUseError);
      const pid = (await readFile(path.join(dataDir, "postmaster.pid"), "utf8")).split("\n")[0];
      expect((error as Error).message).toContain(`pid ${pid}`);
      expect((error as Error).message).toContain(dataDir);
    } finally {
      await running.stop();
    }
  });

  it("removes a stale lock left by a server that died, and says so", async () => {
    // A lock file naming a process that does not exist, as a crash would leave it.
    await writeFile(path.join(dataDir, "postmaster.pid"), `999999\n${dataDir}\n0\n5432\n`);
    const lines: string[] = [];
    const server = await startEmbeddedPostgres({ dataDir, log: (line) => lines.push(line) });
    try {
      expect(lines.join("\n")).toMatch(/stale PostgreSQL lock file .*pid 999999 is not running/);
      expect(await query(server.url(), "select note from kept")).toEqual([{ note: "still here" }]);
    } finally {
      await server.stop();
    }
  });
});
