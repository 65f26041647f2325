import type pg from "pg";
import { evaluateSeries, lookbackMs, type Escalation, type EscalationInput, type EscalationSettings } from "@/lib/faults/escalation";
import { TimeSlices } from "@/lib/time-slices";
import { confirmSeriesTails, loadSeries, loadSeriesTails, type History } from "./history";
import { iso, type PreparedEvent } from "./model";

/* Judgement: the escalation rules run over a series' stored history (and new events), and what changes is stored. */

/** How far before a change the rules may rewrite earlier events (a fault it extends began within this). */
const rewriteMarginMs = 86_400_000;

/** Where the rules' context for a change at `since` starts: the look-back before the earliest event it may rewrite. */
function contextFrom(settings: EscalationSettings, since: number): number {
  return since - lookbackMs(settings) - rewriteMarginMs;
}

export type Rejudgement = Escalation & { id: string; seriesKey: string };

/**
 * Judges each series (stored events plus `fresh` ones about to be inserted): the fresh events' judgements, and the
 * stored events from `writeFrom` on whose judgement changed. Rows before it, and the history's `contextOnly` ones,
 * are context only (to count and merge what came before): judged without their own history they could come out
 * differently.
 */
async function judgeSeries(
  history: History,
  fresh: Map<string, EscalationInput[]>,
  settings: EscalationSettings,
  now: number,
  writeFrom: number,
): Promise<{ judged: Map<string, Escalation>; changed: Rejudgement[] }> {
  const judged = new Map<string, Escalation>();
  const changed: Rejudgement[] = [];
  // Thousands of series a batch: the requests sharing this event loop get turns in between (lib/time-slices.ts).
  const slices = new TimeSlices();
  for (const key of new Set([...history.bySeries.keys(), ...fresh.keys()])) {
    if (slices.due()) await slices.pause();
    const stored = history.bySeries.get(key) ?? [];
    const incoming = fresh.get(key) ?? [];
    const result = evaluateSeries(incoming.length ? [...stored, ...incoming] : stored, settings, now);
    for (const event of incoming) judged.set(event.id, result.get(event.id)!);
    for (const row of stored) {
      if (row.beganAt < writeFrom || history.contextOnly.has(row.id)) continue;
      const r = result.get(row.id)!;
      if (r.level !== row.level || r.rule !== row.rule || r.episodeId !== row.episodeId || r.ruleAt !== row.ruleAt || r.releaseAt !== row.releaseAt) {
        changed.push({ id: row.id, seriesKey: row.seriesKey, ...r });
      }
    }
  }
  return { judged, changed };
}

/** The UPDATE storing changed judgements, its six parameters from `$first` on (values: `judgementValues`). */
export const judgementUpdate = (first: number) => {
  const p = (i: number) => `$${first + i}`;
  return `update fault_events f set level = u.level, rule = u.rule, rule_at = u.rule_at, release_at = u.release_at, episode_id = u.episode_id
     from unnest(${p(0)}::text[], ${p(1)}::fault_level[], ${p(2)}::fault_rule[], ${p(3)}::timestamptz[], ${p(4)}::timestamptz[], ${p(5)}::text[])
       as u(id, level, rule, rule_at, release_at, episode_id)
     where f.id = u.id`;
};

export const judgementValues = (changed: Rejudgement[]) => [
  changed.map((u) => u.id), changed.map((u) => u.level), changed.map((u) => u.rule), changed.map((u) => iso(u.ruleAt)), changed.map((u) => iso(u.releaseAt)), changed.map((u) => u.episodeId),
];

async function storeJudgements(client: pg.PoolClient | pg.Pool, changed: Rejudgement[]): Promise<void> {
  if (changed.length === 0) return;
  await client.query(judgementUpdate(1), judgementValues(changed));
}

/** A judgement of new events against the stored tails of their series, to be confirmed under the series locks. */
export interface Provisional {
  clusterId: number;
  keys: string[];
  /** Where each key's tail was read from: the earliest new event of the series. */
  from: number[];
  /** The new events, by series. */
  fresh: Map<string, EscalationInput[]>;
  /** Judgements of the new events, stored with them. */
  judged: Map<string, Escalation>;
  /** Stored events whose judgement the new ones change. */
  changed: Rejudgement[];
  /** This transaction's snapshot when the tails were read. */
  snapshot: string;
}

/**
 * Judges events about to be inserted together with the stored tails of their series (as committed when this runs:
 * `loadSeriesTails`, a bounded read whatever the series hold), and which stored events they change. Nothing is
 * written. The snapshot comes from the same statement as the tails.
 */
export async function judgeIncoming(client: pg.PoolClient, clusterId: number, settings: EscalationSettings, incoming: PreparedEvent[], now: number): Promise<Provisional> {
  const earliest = new Map<string, number>();
  for (const event of incoming) earliest.set(event.seriesKey, Math.min(earliest.get(event.seriesKey) ?? Infinity, event.beganAt));
  const keys = [...earliest.keys()];
  const from = [...earliest.values()];
  const { snapshot, history } = await loadSeriesTails(client, clusterId, keys, from, settings);
  const storedIds = new Set<string>();
  for (const series of history.bySeries.values()) for (const event of series) storedIds.add(event.id);
  const fresh = new Map<string, EscalationInput[]>();
  for (const event of incoming) {
    // A re-send of a stored event is not inserted again (if it closes the event, the batch is judged again later).
    if (storedIds.has(event.id)) continue;
    const input: EscalationInput = { id: event.id, kind: event.kind, code: event.code, reportedLevel: event.reportedLevel, beganAt: event.beganAt, endedAt: event.endedAt };
    const list = fresh.get(event.seriesKey);
    if (list) list.push(input);
    else fresh.set(event.seriesKey, [input]);
  }
  return { clusterId, keys, from, fresh, snapshot, ...(await judgeSeries(history, fresh, settings, now, -Infinity)) };
}

/**
 * Under the series locks: the stored events whose judgement must change. When no other transaction finished since
 * `provisional` was made and every new event was inserted, that is its judgement; otherwise the tails are read
 * again (this batch's events now among them, with the judgement they were stored with) and judged again, for every
 * series when others may have written to them, else for the series where an event was not inserted (stored already,
 * under the same id with another begin, so it was judged as new by mistake).
 */
export async function confirmJudgement(client: pg.PoolClient, provisional: Provisional, created: Set<string>, settings: EscalationSettings, now: number): Promise<Rejudgement[]> {
  const { clusterId, keys, from, fresh } = provisional;
  const notInserted = [...fresh].filter(([, events]) => events.some((event) => !created.has(event.id))).map(([key]) => key);
  const { quiet, history } = await confirmSeriesTails(client, clusterId, keys, from, settings, provisional.snapshot, notInserted);
  const again = new Set(quiet ? notInserted : keys);
  if (again.size === 0) return provisional.changed;
  const unaffected = provisional.changed.filter((r) => !again.has(r.seriesKey));
  return [...unaffected, ...(await judgeSeries(history, new Map(), settings, now, -Infinity)).changed];
}

/**
 * Re-evaluates the escalation rules for the series a change touched (from the earliest changed begin minus the
 * rules' look-back) and stores the results that differ. Returns the number of rows whose judgement changed.
 */
export async function reevaluateSeries(
  client: pg.PoolClient | pg.Pool,
  clusterId: number,
  settings: EscalationSettings,
  keys: string[],
  since: number,
  now = Date.now(),
): Promise<{ updated: number }> {
  const changed = await rejudgeSeries(client, clusterId, settings, keys, since, now);
  await storeJudgements(client, changed);
  return { updated: changed.length };
}

/** `reevaluateSeries` without storing: the judgements that change. */
export async function rejudgeSeries(client: pg.PoolClient | pg.Pool, clusterId: number, settings: EscalationSettings, keys: string[], since: number, now: number): Promise<Rejudgement[]> {
  if (keys.length === 0) return [];
  const history = await loadSeries(client, clusterId, keys, contextFrom(settings, since));
  return (await judgeSeries(history, new Map(), settings, now, since - rewriteMarginMs)).changed;
}
