import type pg from "pg";
import { appDatabase, replicaDatabase, type DatabaseHandle } from "./client";
import { isDatabaseUnavailable } from "./unavailable";

/*
 * The read replica (DATABASE_READ_URL, issue 20 item 2). The heavy reads (fault timeline, statistics and report,
 * topology, search, lists) may be answered by a streaming replica; everything else stays on the primary. The replica
 * answers only when its answer is one the primary could have given:
 * - a caller who wrote carries the primary's WAL position after the write (server/http/read-routing.ts, a cookie) and
 *   is read from the replica only once the replica has replayed past it (read your own writes), else the primary;
 * - a read that would first have to write (faults judged again as time passes, stale rollups) throws
 *   ReplicaCannotAnswer on the replica and runs again on the primary, as does a statement the replica refuses
 *   (read-only, or cancelled by a conflict with recovery);
 * - a replica that cannot be reached, or is no standby, is not used (said once in the log), never a 500.
 * A replica that is behind by more than a second answers with the time its data is as of ("data as of" in the UI).
 */

/** A WAL position as PostgreSQL writes it ("16/B374D848"): two hex halves of a 64-bit byte position. */
const lsnPattern = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

export const isLsn = (text: string): boolean => lsnPattern.test(text);

/** A WAL position as a number, for comparing two. */
export function lsnBytes(lsn: string): bigint {
  const match = lsnPattern.exec(lsn);
  if (!match) throw new Error(`not a WAL position: ${lsn}`);
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}

/** What the replica said when it was last asked, and when (ms). */
export type ReplicaStatus =
  | { state: "standby"; at: number; replayLsn: string | null; primaryLsn: string | null; replayedAt: Date | null; lagMs: number | null }
  | { state: "down"; at: number; error: string }
  | { state: "not-standby"; at: number };

export type ReadSource = "primary" | "replica";

export interface ReadDecision {
  source: ReadSource;
  /** Why: no replica configured, it is down or no standby, it has not replayed the caller's write yet, or it may answer. */
  reason: "no-replica" | "replica-down" | "not-standby" | "behind-caller" | "replica-refused" | "replica";
  /** Set when the replica answers and is behind by more than the hint's threshold: its data is as of this time. */
  asOf: Date | null;
}

/** Below this a replica's lag is not worth a hint: streaming replicas are always some milliseconds behind a busy primary. */
export const lagHintMs = 1_000;

/**
 * Where a read goes, given the replica's status (undefined: none configured), the WAL position the caller's last
 * write reached (null: none), and now (ms).
 */
export function decideRead(status: ReplicaStatus | undefined, after: string | null, now: number, hintMs = lagHintMs): ReadDecision {
  if (!status) return { source: "primary", reason: "no-replica", asOf: null };
  if (status.state === "down") return { source: "primary", reason: "replica-down", asOf: null };
  if (status.state === "not-standby" || status.replayLsn === null) return { source: "primary", reason: "not-standby", asOf: null };
  const replay = lsnBytes(status.replayLsn);
  if (after !== null && replay < lsnBytes(after)) return { source: "primary", reason: "behind-caller", asOf: null };
  const behind = status.primaryLsn !== null && lsnBytes(status.primaryLsn) > replay;
  const lagMs = status.lagMs === null ? null : status.lagMs + Math.max(0, now - status.at);
  const asOf = behind && status.replayedAt !== null && lagMs !== null && lagMs >= hintMs ? status.replayedAt : null;
  return { source: "replica", reason: "replica", asOf };
}

/** Thrown by a loader handed the replica when its answer needs a write first: the read runs again on the primary. */
export class ReplicaCannotAnswer extends Error {
  constructor(why: string) {
    super(`the replica cannot answer: ${why}`);
    this.name = "ReplicaCannotAnswer";
  }
}

const replicaPools = new WeakSet<pg.Pool>();

/** Whether `pool` is the read replica's: loaders that write before they read check it (db/queries/faults). */
export const isReplicaPool = (pool: pg.Pool | pg.PoolClient): boolean => replicaPools.has(pool as pg.Pool);

/**
 * SQLSTATEs with which a hot standby refuses a statement that the primary would run: read_only_sql_transaction (a
 * write), serialization_failure (cancelled by a conflict with recovery) and query_canceled on a standby (a conflict,
 * with max_standby_streaming_delay reached). https://www.postgresql.org/docs/15/hot-standby.html#HOT-STANDBY-CONFLICT
 */
const refusedOnStandby = new Set(["25006", "40001", "57014"]);

function refusedByReplica(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== "object" || depth > 8) return false;
  if (error instanceof ReplicaCannotAnswer) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && refusedOnStandby.has(code)) return true;
  return refusedByReplica((error as { cause?: unknown }).cause, depth + 1);
}

/** Asks the replica where its replay is and the primary where its WAL is, at the same moment. */
async function probeReplica(replica: DatabaseHandle, primary: DatabaseHandle): Promise<ReplicaStatus> {
  const at = Date.now();
  const [standby, current] = await Promise.all([
    replica.pool.query<{ standby: boolean; replay: string | null; replayed_at: Date | null; lag_ms: number | null }>(
      `select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replay, pg_last_xact_replay_timestamp() as replayed_at,
         (extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000)::float8 as lag_ms`,
    ),
    primary.pool.query<{ lsn: string }>("select pg_current_wal_lsn()::text as lsn").catch(() => undefined),
  ]);
  const row = standby.rows[0]!;
  if (!row.standby) return { state: "not-standby", at };
  return { state: "standby", at, replayLsn: row.replay, primaryLsn: current?.rows[0]?.lsn ?? null, replayedAt: row.replayed_at, lagMs: row.lag_ms };
}

export interface ReadRouterOptions {
  /** How long one look at the replica's replay position serves every request (ms). */
  statusTtlMs?: number;
  /** How long an unreachable replica is left alone before it is asked again (ms). */
  downRetryMs?: number;
  log?: (line: string) => void;
  probe?: (replica: DatabaseHandle, primary: DatabaseHandle) => Promise<ReplicaStatus>;
}

export interface ReadResult<T> {
  value: T;
  read: ReadDecision;
}

/** Chooses the database of each routed read; one per process (`readRouter()`), or made by tests with a probe of their own. */
export class ReadRouter {
  private status: ReplicaStatus | undefined;
  private pending: Promise<ReplicaStatus> | undefined;
  private readonly statusTtlMs: number;
  private readonly downRetryMs: number;
  private readonly log: (line: string) => void;
  private readonly probe: (replica: DatabaseHandle, primary: DatabaseHandle) => Promise<ReplicaStatus>;

  constructor(
    private readonly primary: () => DatabaseHandle,
    private readonly replica: DatabaseHandle | undefined,
    options: ReadRouterOptions = {},
  ) {
    if (replica) replicaPools.add(replica.pool);
    this.statusTtlMs = options.statusTtlMs ?? 500;
    this.downRetryMs = options.downRetryMs ?? 5_000;
    this.log = options.log ?? ((line) => console.warn(`[rankscope] ${line}`));
    this.probe = options.probe ?? probeReplica;
  }

  get configured(): boolean {
    return this.replica !== undefined;
  }

  /** The replica's status, asked again when older than its time to live (`fresh`: when older than `fresh` ms). */
  private async replicaStatus(fresh?: number): Promise<ReplicaStatus> {
    const status = this.status;
    const ttl = status?.state === "down" ? this.downRetryMs : (fresh ?? this.statusTtlMs);
    if (status && Date.now() - status.at < ttl) return status;
    this.pending ??= this.probe(this.replica!, this.primary())
      .catch((error: unknown): ReplicaStatus => ({ state: "down", at: Date.now(), error: error instanceof Error ? error.message : String(error) }))
      .then((next) => (this.record(next), next))
      .finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Keeps the status, and says in the log when the replica stops or starts being usable (once per change). */
  private record(next: ReplicaStatus): void {
    const before = this.status?.state;
    this.status = next;
    if (next.state === before) return;
    if (next.state === "down") this.log(`read replica (DATABASE_READ_URL) unreachable: ${next.error}; reads go to the primary until it answers`);
    else if (next.state === "not-standby") this.log("DATABASE_READ_URL is not a standby (pg_is_in_recovery() is false): reads go to the primary");
    else if (before !== undefined) this.log("read replica (DATABASE_READ_URL) answers again");
  }

  /** Where a read by a caller whose last write reached `after` goes now. */
  async decide(after: string | null): Promise<ReadDecision> {
    if (!this.replica) return decideRead(undefined, after, Date.now());
    const decision = decideRead(await this.replicaStatus(), after, Date.now());
    // The cached position may predate the caller's write by a few hundred ms: ask once more before using the primary.
    if (decision.reason === "behind-caller") return decideRead(await this.replicaStatus(0), after, Date.now());
    return decision;
  }

  /** Runs `work` on the database `decide` chooses; on the primary again when the replica cannot answer or fails. */
  async run<T>(after: string | null, work: (handle: DatabaseHandle) => Promise<T>): Promise<ReadResult<T>> {
    const read = await this.decide(after);
    if (read.source === "primary") return { value: await work(this.primary()), read };
    try {
      return { value: await work(this.replica!), read };
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        this.record({ state: "down", at: Date.now(), error: error instanceof Error ? error.message : String(error) });
        return { value: await work(this.primary()), read: { source: "primary", reason: "replica-down", asOf: null } };
      }
      if (!refusedByReplica(error)) throw error;
      return { value: await work(this.primary()), read: { source: "primary", reason: "replica-refused", asOf: null } };
    }
  }
}

const globalForRouter = globalThis as typeof globalThis & { rankscopeReadRouter?: ReadRouter };

/** The process's router: the replica of DATABASE_READ_URL, or none (every read on the primary). */
export function readRouter(): ReadRouter {
  globalForRouter.rankscopeReadRouter ??= new ReadRouter(appDatabase, replicaDatabase());
  return globalForRouter.rankscopeReadRouter;
}

/** The primary's WAL position now: after a write, what a replica must have replayed to show it. */
export async function primaryWalPosition(): Promise<string> {
  const { rows } = await appDatabase().pool.query<{ lsn: string }>("select pg_current_wal_lsn()::text as lsn");
  return rows[0]!.lsn;
}
