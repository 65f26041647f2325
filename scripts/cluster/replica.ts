/**
 * A real PostgreSQL primary and a streaming replica for `npm run test:cluster`: Debian's PostgreSQL programs
 * (RANKSCOPE_PG_BIN, default /usr/lib/postgresql/15/bin), initdb, pg_basebackup -R (which writes standby.signal and
 * primary_conninfo), pg_ctl; in a directory of their own under /var/tmp on free ports. As root they run as user
 * postgres, which PostgreSQL requires.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { appendFile, chmod, chown, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "@/db/embedded";
import { log } from "./instances";

const run = promisify(execFile);
const bin = process.env.RANKSCOPE_PG_BIN ?? "/usr/lib/postgresql/15/bin";
const asRoot = process.getuid?.() === 0;

/** Runs one of PostgreSQL's programs, as user postgres when we are root. */
async function pgProgram(program: string, args: string[]): Promise<void> {
  const command = path.join(bin, program);
  const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
  await run(file, argv, { cwd: "/var/tmp", timeout: 120_000 });
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const id = async (flag: string) => Number((await run("id", [flag, "postgres"])).stdout.trim());
  return { uid: await id("-u"), gid: await id("-g") };
}

export interface ReplicatedDatabase {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops replaying WAL on the replica (it stays up and answers, falling behind), or starts again. */
  pauseReplay(paused: boolean): Promise<void>;
  /** Transactions the replica has run so far (pg_stat_database): the instances' reads raise it. */
  replicaTransactions(): Promise<number>;
  /** Stops the replica (fast shutdown), leaving the primary up. */
  stopReplica(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPrimaryAndReplica(): Promise<ReplicatedDatabase> {
  if (!existsSync(path.join(bin, "pg_basebackup"))) {
    throw new Error(`no PostgreSQL programs in ${bin} (apt-get install postgresql-15, or set RANKSCOPE_PG_BIN): the replica needs initdb, pg_basebackup and pg_ctl`);
  }
  const dir = await mkdtemp("/var/tmp/rankscope-cluster-replica-");
  await chmod(dir, 0o755);
  if (asRoot) {
    const { uid, gid } = await postgresIds();
    await chown(dir, uid, gid);
  }
  const primaryDir = path.join(dir, "primary");
  const replicaDir = path.join(dir, "replica");
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const started: string[] = [];
  const pgCtl = (dataDir: string, action: "start" | "stop", port?: number) =>
    pgProgram("pg_ctl", [
      "-D",
      dataDir,
      "-w",
      "-t",
      "60",
      ...(action === "start" ? ["-l", `${dataDir}.log`, "-o", `-p ${port} -k ${dir}`, "start"] : ["-m", "fast", "stop"]),
    ]);
  const stop = async () => {
    for (const dataDir of started.reverse()) await pgCtl(dataDir, "stop").catch(() => {});
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await pgProgram("initdb", ["-D", primaryDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C"]);
    // initdb's pg_hba.conf already lets local and 127.0.0.1 connections replicate (trust).
    await appendFile(primaryDir + "/postgresql.conf", ["", "listen_addresses = '127.0.0.1'", "wal_level = replica", "max_wal_senders = 4", "fsync = off", ""].join("\n"));
    await pgCtl(primaryDir, "start", primaryPort);
    started.push(primaryDir);
    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${primaryPort}/postgres` });
    await admin.connect();
    await admin.query("create database rankscope");
    await admin.end();

    await pgProgram("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres", "-D", replicaDir, "-R", "-X", "stream", "-c", "fast"]);
    // Queries on the replica are not cancelled by the vacuum of rows they still read (conflicts with recovery).
    await appendFile(replicaDir + "/postgresql.conf", ["", "hot_standby = on", "hot_standby_feedback = on", ""].join("\n"));
    await pgCtl(replicaDir, "start", replicaPort);
    started.push(replicaDir);
  } catch (error) {
    await stop();
    throw error;
  }
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/rankscope`;
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/rankscope`;
  const replica = new pg.Pool({ connectionString: replicaUrl, max: 1, application_name: "test-cluster" });
  replica.on("error", () => {});
  const { rows } = await replica.query<{ standby: boolean }>("select pg_is_in_recovery() as standby");
  if (!rows[0]?.standby) throw new Error("the replica is not in recovery");
  log(`PostgreSQL ${path.basename(path.dirname(bin))}: primary on port ${primaryPort}, streaming replica on port ${replicaPort} (${dir})`);
  return {
    primaryUrl,
    replicaUrl,
    async pauseReplay(paused) {
      await replica.query(paused ? "select pg_wal_replay_pause()" : "select pg_wal_replay_resume()");
    },
    async replicaTransactions() {
      const { rows } = await replica.query<{ n: string }>("select xact_commit + xact_rollback as n from pg_stat_database where datname = 'rankscope'");
      return Number(rows[0]?.n ?? 0);
    },
    async stopReplica() {
      await replica.end().catch(() => {});
      await pgCtl(replicaDir, "stop");
      started.splice(started.indexOf(replicaDir), 1);
    },
    async stop() {
      await replica.end().catch(() => {});
      await stop();
    },
  };
}
