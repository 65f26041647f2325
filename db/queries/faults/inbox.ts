import type pg from "pg";
import type { DatabaseHandle } from "../../client";
import type { AuditActor } from "../audit";
import { ingestFaultEvents } from "./ingest";
import type { ItemResult } from "./model";

/*
 * The fault-event inbox (table fault_inbox, migration 0028): batches posted with `Prefer: respond-async` are stored
 * here as they come, one row each, and judged later in groups (issue 20, item 7: 20,000 events/s from device
 * plugins while 100 people browse). Judging a batch costs about the same CPU whether it waits or not; what the inbox
 * changes is that a feeder is answered once its batch is committed (milliseconds, not the seconds a judgement takes
 * under load), that many batches are judged as one (one prepare, one set of series locks, one audit entry and one
 * NOTIFY per group), and that the judgement runs in one place per database, at the pace the machine allows.
 */

/** pg_try_advisory_lock key: one inbox judge per database, however many servers share it. */
export const inboxJudgeLockKey = 7_406_028;

/** The NOTIFY channel a stored batch wakes the judges on (the payload is empty). */
export const inboxChannel = "rankscope_fault_inbox";

/** Events one judgement takes at most (merging batches until the next would pass it; a larger batch goes alone). */
export const defaultGroupEvents = 20_000;

/** Stores a batch (its items already validated) in one statement and wakes the judges; returns its id. */
export async function storeInboxBatch(pool: pg.Pool, batch: { actor: AuditActor; items: unknown[]; positions: number[] | null }): Promise<{ id: number; receivedAt: string }> {
  const { rows } = await pool.query<{ id: string; received_at: Date }>(
    `with stored as (insert into fault_inbox (actor, events, items, positions) values ($1, $2, $3, $4) returning id, received_at)
     select id, received_at, pg_notify($5, '') from stored`,
    [batch.actor, batch.items.length, JSON.stringify(batch.items), batch.positions, inboxChannel],
  );
  return { id: Number(rows[0]!.id), receivedAt: rows[0]!.received_at.toISOString() };
}

export interface InboxBacklog {
  batches: number;
  events: number;
  /** When the oldest unjudged batch was received, and how long ago (PostgreSQL's clock); null when the inbox is empty. */
  oldestReceivedAt: string | null;
  oldestAgeMs: number | null;
}

/** What waits in the inbox: one aggregate over a table that holds seconds of batches. */
export async function inboxBacklog(pool: pg.Pool): Promise<InboxBacklog> {
  const { rows } = await pool.query<{ batches: number; events: string; oldest: Date | null; age_ms: number | null }>(
    `select count(*)::int as batches, coalesce(sum(events), 0) as events, min(received_at) as oldest,
            (extract(epoch from clock_timestamp() - min(received_at)) * 1000)::float8 as age_ms
     from fault_inbox`,
  );
  const row = rows[0]!;
  return { batches: row.batches, events: Number(row.events), oldestReceivedAt: row.oldest?.toISOString() ?? null, oldestAgeMs: row.age_ms === null ? null : Math.round(row.age_ms) };
}

/** A judged group: its batches, their events, what was written, and the items refused (with their batch and index). */
export interface JudgedGroup {
  batches: number;
  events: number;
  changed: number;
  refused: { inbox: number; index: number; error: ItemResult["error"] }[];
}

interface HeadRow {
  id: string;
  actor: AuditActor;
  events: number;
}

/** The next group: batches in order, of one actor (the audit entry names one), up to `maxEvents` (at least one batch). */
async function nextGroup(client: pg.PoolClient, maxEvents: number): Promise<HeadRow[]> {
  const { rows } = await client.query<HeadRow>("select id, actor, events from fault_inbox order by id limit 1000");
  const group: HeadRow[] = [];
  let events = 0;
  for (const row of rows) {
    if (group.length > 0 && (events + row.events > maxEvents || JSON.stringify(row.actor) !== JSON.stringify(group[0]!.actor))) break;
    group.push(row);
    events += row.events;
  }
  return group;
}

/** Judges one group through ingestFaultEvents, deleting its batches in the transaction that writes their events. */
async function judgeGroup(handle: DatabaseHandle, client: pg.PoolClient, group: HeadRow[], now: () => number): Promise<JudgedGroup> {
  const ids = group.map((row) => Number(row.id));
  const { rows } = await client.query<{ id: string; items: string; positions: number[] | null }>("select id, items, positions from fault_inbox where id = any($1::bigint[]) order by id", [ids]);
  const items: unknown[] = [];
  /** For each merged item: its batch and its index in the batch as posted. */
  const origin: { inbox: number; index: number }[] = [];
  for (const row of rows) {
    const batch = JSON.parse(row.items) as unknown[];
    batch.forEach((item, i) => {
      items.push(item);
      origin.push({ inbox: Number(row.id), index: row.positions?.[i] ?? i });
    });
  }
  const refusedOf = (results: ItemResult[]) => results.filter((r) => r.status === "invalid").map((r) => ({ ...origin[r.index]!, error: r.error }));
  const result = await ingestFaultEvents(handle, items, {
    // What the receipt could check (each item's shape) was checked then, for either `atomic`; what only the stored
    // data tells (an unknown target, an event past retention, an end with nothing open) refuses the item alone.
    atomic: "item",
    actor: group[0]!.actor,
    now: now(),
    claim: async (tx) => {
      const { rowCount } = await tx.query("delete from fault_inbox where id = any($1::bigint[])", [ids]);
      // Another judge took them (it cannot while this one holds the lock; a safeguard): roll back, judge nothing.
      if (rowCount !== rows.length) throw new Error(`inbox batches ${ids.join(", ")} were judged elsewhere`);
    },
    auditDetails: (results) => {
      const refused = refusedOf(results);
      return { inbox: { batches: ids.length, first: ids[0], last: ids.at(-1) }, ...(refused.length ? { refused: refused.length, refusedItems: refused.slice(0, 20) } : {}) };
    },
  });
  return { batches: rows.length, events: items.length, changed: result.counts.created + result.counts.closed, refused: refusedOf(result.items) };
}

export interface JudgeOptions {
  /** Events per judgement at most (defaultGroupEvents). */
  maxGroupEvents?: number;
  now?: () => number;
  /** Stops between two groups. */
  signal?: AbortSignal;
  /** Told of each judged group and how long it took (ms); the next group waits for it (the runner's pacing). */
  onGroup?: (group: JudgedGroup, ms: number) => void | Promise<void>;
}

/**
 * Judges the inbox until it is empty, one group at a time, unless another judge (this process or another) is at it:
 * then returns null at once. The advisory lock is held on its own session for the whole drain, so a judge that dies
 * (its connection gone) lets the next one take over; a group it had not committed is judged again (its batches are
 * still in the inbox), which duplicates nothing (event ids). Returns the batches and events judged.
 */
export async function judgeInbox(handle: DatabaseHandle, options: JudgeOptions = {}): Promise<{ batches: number; events: number } | null> {
  const lock = await handle.pool.connect();
  let broken: unknown;
  try {
    const { rows } = await lock.query<{ locked: boolean }>("select pg_try_advisory_lock($1) as locked", [inboxJudgeLockKey]);
    if (!rows[0]?.locked) return null;
    const total = { batches: 0, events: 0 };
    try {
      while (!options.signal?.aborted) {
        const group = await nextGroup(lock, options.maxGroupEvents ?? defaultGroupEvents);
        if (group.length === 0) break;
        const began = performance.now();
        const judged = await judgeGroup(handle, lock, group, options.now ?? Date.now);
        total.batches += judged.batches;
        total.events += judged.events;
        await options.onGroup?.(judged, performance.now() - began);
      }
      return total;
    } finally {
      // A session that cannot unlock is closed (release(error)): closing it is what frees the lock then.
      await lock.query("select pg_advisory_unlock($1)", [inboxJudgeLockKey]).catch((error: unknown) => (broken = error));
    }
  } catch (error) {
    broken ??= error;
    throw error;
  } finally {
    lock.release(broken instanceof Error ? broken : undefined);
  }
}
