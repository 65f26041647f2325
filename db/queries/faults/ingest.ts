import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { defaultEscalationSettings, lookbackMs, type Escalation } from "@/lib/faults/escalation";
import type { DatabaseHandle } from "../../client";
import { faultChannel } from "../../schema/fault-event/constants";
import { inRetriedTransaction, withSenderXid } from "../../transaction";
import { auditInsert, type AuditActor, type AuditRecord } from "../audit";
import { applyEnds, closeResentEvents, insertNewEvents } from "./insert";
import { confirmJudgement, judgeIncoming, judgementUpdate, judgementValues, rejudgeSeries, type Provisional, type Rejudgement } from "./judgement";
import type { FaultNotice, IngestResult, ItemResult, ItemStatus, PreparedEvent } from "./model";
import { prepareBatch } from "./prepare";
import { lockSeries } from "./series-locks";

/* Ingestion of a batch of events: prepare, judge, insert, then under the series locks apply ends and confirm. */

/**
 * The end of a batch that wrote something, as one statement (one round trip while the series locks are held, which
 * concurrent batches of the same series wait for): the judgements that changed, the audit entry and the NOTIFY
 * (delivered at commit, with the transaction's id).
 */
async function finishBatch(client: pg.PoolClient, changed: Rejudgement[], audit: AuditRecord, notices: FaultNotice[]): Promise<void> {
  const entry = auditInsert(drizzle(client), audit).toSQL();
  const next = entry.params.length + 1;
  await client.query(
    `with audit as (${entry.sql}), judged as (${judgementUpdate(next)})
     select pg_notify($${next + 6}, ${withSenderXid("notice")}) from unnest($${next + 7}::text[]) as notice`,
    [...entry.params, ...judgementValues(changed), faultChannel, notices.map((notice) => JSON.stringify(notice))],
  );
}

export interface IngestOptions {
  atomic: "all" | "item";
  actor: AuditActor;
  now?: number;
  dryRun?: boolean;
  /**
   * Runs first in the transaction that writes the events, and commits or rolls back with them: the inbox judge
   * (inbox.ts) deletes the batches it judges there, so a batch leaves the inbox exactly when its events are stored.
   */
  claim?: (client: pg.PoolClient) => Promise<void>;
  /** More for the audit entry's details, from the items' results (the inbox judge: its batches and the refused items). */
  auditDetails?: (items: ItemResult[]) => Record<string, unknown>;
}

/**
 * Takes a batch of events. `atomic: "all"`: any invalid item and nothing is written (the result lists every
 * problem); `"item"`: the valid items are written and the invalid ones reported. Re-sending changes nothing and
 * every item says "unchanged".
 *
 * Concurrent batches: new events are judged against the committed history and inserted without any series lock
 * (the bulk of the work, so batches of the same series insert in parallel); then, holding the series locks until
 * commit, the batch applies its ends and confirms the judgement, corrected for the events other batches committed
 * to its series meanwhile (read by `xmin`: only what changed). Of two batches touching a series, the second to lock
 * sees the first's events.
 */
export async function ingestFaultEvents(
  handle: DatabaseHandle,
  items: unknown[],
  options: IngestOptions,
): Promise<IngestResult> {
  const now = options.now ?? Date.now();
  const { events, ends, results, contexts } = await prepareBatch(handle, items, now);
  const counts: Record<ItemStatus, number> = { created: 0, closed: 0, unchanged: 0, invalid: 0 };
  const done = (items: ItemResult[]): IngestResult => {
    items.sort((a, b) => a.index - b.index);
    for (const item of items) counts[item.status]++;
    return { changed: counts.created + counts.closed > 0, counts, items };
  };
  if (options.atomic === "all" && results.length > 0) return done(results);
  if (options.dryRun) {
    // What would happen, without writing: new ids would be created, known ones left alone (ends are only checked).
    const { rows } = await handle.pool.query<{ id: string }>("select id from fault_events where id = any($1::text[])", [events.map((e) => e.id)]);
    const known = new Set(rows.map((r) => r.id));
    const preview = [...results];
    for (const event of events) preview.push({ index: event.index, status: known.has(event.id) ? "unchanged" : "created", id: event.id });
    for (const end of ends) preview.push({ index: end.index, status: "closed" });
    return { ...done(preview), changed: false };
  }
  // Within one batch, the same id twice is one event: the later copy is a re-send.
  const unique = new Map<string, PreparedEvent>();
  const duplicates: PreparedEvent[] = [];
  for (const event of events) {
    if (unique.has(event.id)) duplicates.push(event);
    else unique.set(event.id, event);
  }
  const contextOf = (clusterId: number) => [...contexts.values()].find((c) => c?.cluster.id === clusterId)!;
  const clusterIds = [...new Set([...events.map((e) => e.clusterId), ...ends.map((e) => e.clusterId)])];
  const written = await inRetriedTransaction(handle.pool, async (client) => {
    // No JIT for this transaction's statements: the planner's estimates for the tails reads (thousands of index
    // probes) pass jit_above_cost, and compiling them cost ~280 ms of PostgreSQL's CPU per read of a 20,000-event
    // group's tails, read twice when another transaction committed meanwhile: more than the read itself (measured
    // with auto_explain, issue 20).
    // More work_mem: the insert's transition tables (its triggers read the new rows, raw payloads and all) and its
    // RETURNING pass 4 MB from a few thousand events on and went through temporary files: 2.6 % of PostgreSQL's CPU
    // for a 20,000-event group (perf). Smaller batches never use it.
    await client.query("set local jit = off; set local work_mem = '64MB'");
    await options.claim?.(client);
    const provisional = new Map<number, Provisional>();
    const judged = new Map<string, Escalation>();
    for (const clusterId of clusterIds) {
      const incoming = [...unique.values()].filter((e) => e.clusterId === clusterId);
      const judgement = await judgeIncoming(client, clusterId, contextOf(clusterId).settings.escalation, incoming, now);
      provisional.set(clusterId, judgement);
      for (const [id, escalation] of judgement.judged) judged.set(id, escalation);
    }
    const created = await insertNewEvents(client, [...unique.values()], judged);
    for (const clusterId of clusterIds) {
      await lockSeries(client, clusterId, [...events, ...ends].filter((e) => e.clusterId === clusterId).map((e) => e.seriesKey));
    }
    // Under the locks: ends close stored events (or ones this batch just inserted); a re-sent begin with its end
    // closes the stored event.
    const endResults = await applyEnds(client, ends);
    if (options.atomic === "all" && [...endResults.values()].some((r) => r.status === "invalid")) {
      throw new BatchRejected([...results, ...endResults.values()].filter((r) => r.status === "invalid"));
    }
    const closed = await closeResentEvents(client, [...unique.values()].filter((e) => !created.has(e.id)));
    const touched = new Map<number, { keys: Set<string>; since: number; closes: boolean }>();
    const touch = (clusterId: number, key: string, at: number, closes: boolean) => {
      const entry = touched.get(clusterId) ?? { keys: new Set<string>(), since: at, closes: false };
      entry.keys.add(key);
      entry.since = Math.min(entry.since, at);
      entry.closes ||= closes;
      touched.set(clusterId, entry);
    };
    for (const event of unique.values()) if (created.has(event.id) || closed.has(event.id)) touch(event.clusterId, event.seriesKey, event.beganAt, closed.has(event.id));
    for (const end of ends) if (endResults.get(end.index)?.status === "closed") touch(end.clusterId, end.seriesKey, end.endedAt - lookbackMs(defaultEscalationSettings), true);
    const rejudged: Rejudgement[] = [];
    for (const [clusterId, { keys, since, closes }] of touched) {
      // A batch that only added events confirms the judgement it made before the locks, corrected for what other
      // batches wrote meanwhile; one that closed events judges its series again from what is stored now.
      const settings = contextOf(clusterId).settings.escalation;
      rejudged.push(...(closes ? await rejudgeSeries(client, clusterId, settings, [...keys], since, now) : await confirmJudgement(client, provisional.get(clusterId)!, created, settings, now)));
    }
    const itemResults: ItemResult[] = [...results, ...endResults.values()];
    for (const event of unique.values()) {
      itemResults.push({ index: event.index, status: created.has(event.id) ? "created" : closed.has(event.id) ? "closed" : "unchanged", id: event.id });
    }
    for (const event of duplicates) itemResults.push({ index: event.index, status: "unchanged", id: event.id });
    const changed = itemResults.filter((r) => r.status === "created" || r.status === "closed").length;
    // Judgements only change in series this batch wrote to (`touched`): then `changed` is not 0.
    if (changed) {
      const notices: FaultNotice[] = [...touched.keys()].map((clusterId) => ({ clusterId, slug: contextOf(clusterId).cluster.slug, changed, at: now }));
      const audit: AuditRecord = {
        actor: options.actor,
        action: "fault_events.ingest",
        target: notices.length === 1 ? { type: "cluster", id: notices[0]!.slug } : undefined,
        details: { items: items.length, changed, clusters: notices.map((n) => n.slug), ...options.auditDetails?.(itemResults) },
      };
      await finishBatch(client, rejudged, audit, notices);
    }
    return itemResults;
  }).catch((error: unknown) => {
    if (error instanceof BatchRejected) return error.items;
    throw error;
  });
  return done(written);
}

/** An atomic batch with an invalid end: thrown to roll the transaction back, caught to answer its items. */
class BatchRejected extends Error {
  constructor(readonly items: ItemResult[]) {
    super("batch rejected");
  }
}
