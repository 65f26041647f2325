import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { blockedDirectory, EmbeddedPostgresInUseError, rootDataParent, startEmbeddedPostgres } from "./embedded";

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

  it("comes back by itself when PostgreSQL is killed, while supervised", async () => {
    const lines: string[] = [];
    const server = await startEmbeddedPostgres({ dataDir, log: (line) => lines.push(line) });
    const unsupervise = server.supervise((line) => lines.push(line));
    try {
      const pid = Number((await readFile(path.join(dataDir, "postmaster.pid"), "utf8")).split("\n")[0]);
      process.kill(pid, "SIGKILL");
      const started = Date.now();
      let rows: unknown[] | undefined;
      while (!rows && Date.now() - started < 60_000) {
        rows = await query(server.url(), "select note from kept").catch(() => undefined);
        if (!rows) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(rows).toEqual([{ note: "still here" }]);
      expect(lines.join("\n")).toMatch(/exited \(SIGKILL\): starting it again[\s\S]*running again/);
    } finally {
      unsupervise();
      await server.stop();
    }
  });
});

describe("embedded PostgreSQL started as root", () => {
  it("finds the directory user postgres cannot enter", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "rankscope-blocked-"));
    try {
      await mkdir(path.join(dir, "inner"));
      await chmod(dir, 0o700);
      // Nobody's uid/gid: only the "other" bits count.
      expect(blockedDirectory(path.join(dir, "inner", "data"), 65_000, 65_000)).toBe(dir);
      await chmod(dir, 0o711);
      expect(blockedDirectory(path.join(dir, "inner", "data"), 65_000, 65_000)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(os.userInfo().uid !== 0)("starts from a private directory (mode 0700, owned by root), keeping its data where user postgres can enter", async () => {
    const privateDir = await mkdtemp(path.join(os.tmpdir(), "rankscope-private-"));
    await chmod(privateDir, 0o700);
    const wanted = path.join(privateDir, "checkout", ".data", "postgres");
    const lines: string[] = [];
    const server = await startEmbeddedPostgres({ dataDir: wanted, persistent: false, log: (line) => lines.push(line) });
    try {
      expect(server.dataDir.startsWith(`${rootDataParent}/`)).toBe(true);
      expect(await query(server.url(), "select 1 as one")).toEqual([{ one: 1 }]);
      expect(lines.join("\n")).toContain(`user postgres cannot enter ${privateDir}`);
    } finally {
      await server.stop();
      await rm(privateDir, { recursive: true, force: true });
    }
  });
});
