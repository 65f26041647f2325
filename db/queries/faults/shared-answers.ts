import type pg from "pg";
import { parseSnapshot, formatSnapshot, type XactSnapshot } from "@/lib/xact-snapshot";

/*
 * Fault answers shared by every instance (issue 20): the table shared_fault_answers (migration
 * 0029_shared_fault_answers, UNLOGGED, on the primary: a replica is read-only and does not even see an unlogged
 * table's rows) keeps, per answer key, the last answer computed by any instance, gzipped, with the snapshot it was
 * computed from. An instance that wants a key takes the stored answer when `accept` says it covers what it heard
 * (lib/heard-changes.ts); else one instance at a time computes it (a transaction-scoped advisory lock per key; the
 * holder says in shared_fault_computing which snapshot it reads from, and another instance waits, at most `waitMs`,
 * only when that snapshot covers what it heard; a holder that dies ends its session and so its lock).
 */

export interface StoredFaultAnswer {
  snapshot: XactSnapshot;
  headers: Record<string, string>;
  /** The JSON's length, decoded. */
  jsonBytes: number;
  gzip: Buffer;
}

export interface FoundFaultAnswer extends StoredFaultAnswer {
  /** Since its snapshot was taken (ms, PostgreSQL's clock). */
  ageMs: number;
}

/** Whether an instance may serve a stored answer, from its snapshot and age. */
export type AcceptAnswer = (snapshot: XactSnapshot, ageMs: number) => boolean;

/** pg_advisory_xact_lock(class, hashtext(key)): one computation of a key at a time across instances. */
const answerLockClass = 730_212;
/** Rows older than this are no use to anyone (an answer is served for seconds): dropped as others are stored. */
const keepSeconds = 60;
/** PostgreSQL's lock_not_available, raised when lock_timeout ends the wait. */
const lockNotAvailable = "55P03";

type Queryable = pg.Pool | pg.PoolClient;

/** The snapshot of the database `pool` reads now: taken before an answer's reads, it is older than all of theirs. */
export async function currentSnapshot(pool: Queryable): Promise<XactSnapshot> {
  const { rows } = await pool.query<{ snapshot: string }>("select pg_current_snapshot()::text as snapshot");
  return parseSnapshot(rows[0]!.snapshot);
}

interface LookUp {
  found?: FoundFaultAnswer;
  /** A computation of the key is under way from a snapshot `accept` takes: worth waiting for. */
  worthWaiting: boolean;
}

/**
 * The stored answer of `key` if `accept` takes it (its snapshot and age first, its bytes only when taken), and whether
 * the computation under way, if any, will give one it takes.
 */
async function lookUp(q: Queryable, key: string, accept: AcceptAnswer, waitMs: number): Promise<LookUp> {
  const { rows } = await q.query<{ snapshot: string | null; computed_at: string | null; age_ms: number | null; computing: string | null; computing_ms: number | null }>(
    `select a.snapshot::text, a.computed_at::text, (extract(epoch from clock_timestamp() - a.computed_at) * 1000)::float8 as age_ms,
       c.snapshot::text as computing, (extract(epoch from clock_timestamp() - c.started_at) * 1000)::float8 as computing_ms
     from (select $1::text as key) k left join shared_fault_answers a using (key) left join shared_fault_computing c using (key)`,
    [key],
  );
  const row = rows[0]!;
  const worthWaiting = row.computing !== null && row.computing_ms! < waitMs && accept(parseSnapshot(row.computing), 0);
  if (row.snapshot === null) return { worthWaiting };
  const snapshot = parseSnapshot(row.snapshot);
  if (!accept(snapshot, row.age_ms!)) return { worthWaiting };
  // The same row (replaced meanwhile: not this answer, so none).
  const { rows: bodies } = await q.query<{ headers: Record<string, string>; json_bytes: number; gzip: Buffer }>(
    "select headers, json_bytes, gzip from shared_fault_answers where key = $1 and computed_at = $2::timestamptz",
    [key, row.computed_at],
  );
  const body = bodies[0];
  return { worthWaiting, ...(body ? { found: { snapshot, ageMs: row.age_ms!, headers: body.headers, jsonBytes: body.json_bytes, gzip: body.gzip } } : {}) };
}

/**
 * Stores `answer` as the one of `key`, computed `elapsedMs` ago (its snapshot's time), unless the stored one was
 * computed from a newer snapshot (a larger xmax); drops the rows nobody will take any more.
 */
export async function storeFaultAnswer(q: Queryable, key: string, answer: StoredFaultAnswer, elapsedMs: number): Promise<void> {
  await q.query(
    `insert into shared_fault_answers as stored (key, snapshot, computed_at, headers, json_bytes, gzip)
     values ($1, $2::pg_snapshot, clock_timestamp() - make_interval(secs => $3::float8 / 1000), $4::jsonb, $5, $6)
     on conflict (key) do update set snapshot = excluded.snapshot, computed_at = excluded.computed_at, headers = excluded.headers,
       json_bytes = excluded.json_bytes, gzip = excluded.gzip
     where pg_snapshot_xmax(excluded.snapshot) >= pg_snapshot_xmax(stored.snapshot)`,
    [key, formatSnapshot(answer.snapshot), elapsedMs, JSON.stringify(answer.headers), answer.jsonBytes, answer.gzip],
  );
  await q.query("delete from shared_fault_computing where key = $1", [key]);
  await q.query(`delete from shared_fault_answers where computed_at < clock_timestamp() - make_interval(secs => ${keepSeconds})`);
  await q.query(`delete from shared_fault_computing where started_at < clock_timestamp() - make_interval(secs => ${keepSeconds})`);
}

export interface ObtainedFaultAnswer {
  answer: StoredFaultAnswer;
  /** Computed here (`compute` ran), or taken from the table (another instance's, or this one's earlier). */
  computed: boolean;
  /** Since its snapshot was taken (ms): 0 when computed here. */
  ageMs: number;
}

/** Told the snapshot an answer is computed from as soon as it is taken (again if the read moves to the primary). */
export type ComputeFaultAnswer = (reading: (snapshot: XactSnapshot) => void) => Promise<StoredFaultAnswer>;

/**
 * The answer of `key`: the stored one if `accept` takes it, else computed by `compute` and stored. Once across
 * instances while it helps: the instance computing holds the key's advisory lock and says which snapshot it reads
 * from (shared_fault_computing); another instance waits for it (up to `waitMs`) only when `accept` takes that
 * snapshot, then takes its answer, and otherwise computes in parallel at once (it heard of a change that computation
 * will miss: waiting would only put its own after it). The table failing (the primary unreachable while a replica
 * answers) is no error: the answer is then computed here, unshared.
 */
export async function obtainFaultAnswer(
  pool: pg.Pool,
  key: string,
  accept: AcceptAnswer,
  compute: ComputeFaultAnswer,
  options: { waitMs: number },
): Promise<ObtainedFaultAnswer> {
  const computeAndStore = async (q: Queryable | undefined, locked = false): Promise<ObtainedFaultAnswer> => {
    const started = performance.now();
    const answer = await compute((snapshot) => {
      if (!locked) return;
      pool
        .query(
          `insert into shared_fault_computing (key, snapshot) values ($1, $2::pg_snapshot)
           on conflict (key) do update set snapshot = excluded.snapshot, started_at = excluded.started_at`,
          [key, formatSnapshot(snapshot)],
        )
        .catch(() => {});
    });
    if (q) await storeFaultAnswer(q, key, answer, performance.now() - started).catch(() => {});
    return { answer, computed: true, ageMs: 0 };
  };
  let client: pg.PoolClient;
  let worthWaiting: boolean;
  try {
    const first = await lookUp(pool, key, accept, options.waitMs);
    if (first.found) return { answer: first.found, computed: false, ageMs: first.found.ageMs };
    worthWaiting = first.worthWaiting;
    client = await pool.connect();
  } catch {
    return computeAndStore(undefined);
  }
  let locked: boolean;
  try {
    await client.query("begin");
    if (worthWaiting) {
      await client.query(`set local lock_timeout = ${Math.max(1, Math.round(options.waitMs))}`);
      locked = await client.query("select pg_advisory_xact_lock($1, hashtext($2))", [answerLockClass, key]).then(
        () => true,
        (error: unknown) => {
          if ((error as { code?: unknown }).code !== lockNotAvailable) throw error;
          return false;
        },
      );
    } else {
      const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_xact_lock($1, hashtext($2)) as locked", [answerLockClass, key]);
      locked = rows[0]!.locked;
    }
  } catch {
    await client.query("rollback").catch(() => {});
    client.release(true);
    return computeAndStore(undefined);
  }
  if (!locked) {
    // The holder is slow (or stuck), or computes from a snapshot that misses what was heard here: computed here too.
    await client.query("rollback").catch(() => {});
    client.release();
    return computeAndStore(pool);
  }
  let broken = false;
  try {
    // The holder before us may have stored what we need.
    const { found } = await lookUp(client, key, accept, options.waitMs).catch((): LookUp => ({ worthWaiting: false }));
    if (found) return { answer: found, computed: false, ageMs: found.ageMs };
    // Stored in the transaction holding the lock: the next holder sees it as soon as it has the lock.
    return await computeAndStore(client, true);
  } finally {
    await client.query("commit").catch(() => (broken = true));
    client.release(broken);
  }
}
