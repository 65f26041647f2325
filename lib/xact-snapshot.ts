/**
 * PostgreSQL transaction snapshots (`pg_current_snapshot()`, type pg_snapshot, text `xmin:xmax:xip,…`) and which
 * transactions one sees, so an answer computed from a snapshot can be told apart from one that misses a change: an
 * instance that heard a change's transaction id (its NOTIFY carries `pg_current_xact_id()`, delivered only after
 * commit) may serve an answer another instance computed iff that transaction is visible in the answer's snapshot.
 *
 * Visibility, as pg_visible_in_snapshot() decides it for a committed transaction
 * (https://www.postgresql.org/docs/current/functions-info.html#FUNCTIONS-PG-SNAPSHOT-PARTS): ids below xmin were
 * finished when the snapshot was taken, ids at or above xmax had not started, and of those between, the ones listed
 * in xip were still running. Ids are 64-bit (xid8, epoch included: they never wrap), hence bigint. A hot standby's
 * snapshot uses the primary's ids, so an answer computed on a replica is judged the same way.
 */

export interface XactSnapshot {
  xmin: bigint;
  xmax: bigint;
  /** In progress when the snapshot was taken, each in [xmin, xmax). */
  xip: readonly bigint[];
}

const snapshotPattern = /^(\d+):(\d+):((?:\d+(?:,\d+)*)?)$/;

/** A snapshot from its text form ("748:752:748,750"); throws on anything else. */
export function parseSnapshot(text: string): XactSnapshot {
  const match = snapshotPattern.exec(text.trim());
  if (!match) throw new Error(`not a pg_snapshot: ${text}`);
  const xip = match[3] ? match[3].split(",").map(BigInt) : [];
  return { xmin: BigInt(match[1]!), xmax: BigInt(match[2]!), xip };
}

/** The text form, as PostgreSQL writes it (and reads it back as pg_snapshot). */
export const formatSnapshot = (s: XactSnapshot): string => `${s.xmin}:${s.xmax}:${s.xip.join(",")}`;

/** A transaction id from its text form (`pg_current_xact_id()::text`), or undefined. */
export const parseXid = (text: unknown): bigint | undefined => (typeof text === "string" && /^\d+$/.test(text) ? BigInt(text) : undefined);

/** Whether the committed transaction `xid` is visible in `snapshot`. */
export function xidVisible(snapshot: XactSnapshot, xid: bigint): boolean {
  if (xid < snapshot.xmin) return true;
  if (xid >= snapshot.xmax) return false;
  return !snapshot.xip.includes(xid);
}

/**
 * Whether `snapshot` sees every transaction that had committed when `barrier` was taken (both on the primary, or
 * the barrier on the primary and the snapshot on a replica): then an answer computed from it is at least as new as
 * the barrier. Every id below the barrier's xmax that is not in its xip must be visible: so the barrier's xmax must
 * not exceed the snapshot's, and every id the snapshot saw running below it must have been running at the barrier too.
 */
export function coversSnapshot(snapshot: XactSnapshot, barrier: XactSnapshot): boolean {
  if (barrier.xmax > snapshot.xmax) return false;
  const runningAtBarrier = new Set(barrier.xip);
  return snapshot.xip.every((xid) => xid >= barrier.xmax || runningAtBarrier.has(xid));
}
