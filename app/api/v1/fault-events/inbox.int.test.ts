/**
 * POST /api/v1/fault-events with `Prefer: respond-async`: the batch is stored in the inbox (202 once committed) and
 * judged later in groups by judgeInbox (db/queries/faults/inbox.ts), one judge at a time across pools, exactly once.
 */
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectDatabase, type DatabaseHandle } from "@/db/client";
import { systemActor } from "@/db/queries/audit";
import { judgeInbox } from "@/db/queries/faults";
import { inboxJudgeLockKey } from "@/db/queries/faults/inbox";
import { faultChannel } from "@/db/schema/fault-event/constants";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest, origin } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { postedEvents } from "@/test/fault-events";
import { scheduleInboxJudge } from "@/scripts/inbox-judge";

// Response bodies are read loosely: the assertions say what they must hold.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

withAppDatabase();

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
let post: Handler;
let inbox: Handler;
let token = "";
const none = { params: Promise.resolve({}) };
/** A second pool on the same database: another instance's judge. */
let other: DatabaseHandle;

beforeAll(async () => {
  ({ POST: post } = await import("./route"));
  ({ GET: inbox } = await import("./inbox/route"));
  const { db, url } = testDatabase();
  await seedDemo(db, [demoA3Cluster(2, 4)]);
  token = (await createApiToken(db, { name: "async feeder", role: "editor" }, systemActor)).token;
  other = connectDatabase(url, { max: 3 });
});

afterAll(() => other.pool.end());

/** audit_log is append-only: each test reads the entries after this id. */
let auditMark = 0;

beforeEach(async () => {
  await testDatabase().pool.query("delete from fault_inbox; delete from fault_events");
  auditMark = Number((await testDatabase().pool.query<{ id: string | null }>("select max(id) as id from audit_log")).rows[0]!.id ?? 0);
});

const t0 = Date.parse("2026-11-20T08:00:00Z");
const { linkDown } = postedEvents(t0);
const auth = () => ({ authorization: `Bearer ${token}` });

async function send(events: unknown[], options: { atomic?: "all" | "item"; prefer?: string | null } = {}) {
  const prefer = options.prefer === undefined ? "respond-async" : options.prefer;
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...(prefer ? { prefer } : {}) };
  const response = await post(jsonRequest(`/api/v1/fault-events?atomic=${options.atomic ?? "all"}`, "POST", events, headers), none);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, Loose> };
}

const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await testDatabase().pool.query<T>(sql, params)).rows;
const storedEvents = async () => (await query<{ n: number }>("select count(*)::int as n from fault_events"))[0]!.n;
const inboxRows = () => query<{ id: string; events: number; items: string; positions: number[] | null; actor: Loose }>("select id, events, items, positions, actor from fault_inbox order by id");
const ingestAudits = () => query<{ details: Loose }>("select details from audit_log where action = 'fault_events.ingest' and id > $1 order by id", [auditMark]);

/** Batch `k` of `n` events: distinct link downs on the dies of sp0-node00..03. */
const batch = (k: number, n = 4) => Array.from({ length: n }, (_, i) => linkDown(`sp0-node0${i % 4}`, (k * n + i) % 8, k * 600 + i, k * 600 + i + 30));

describe("POST /api/v1/fault-events with Prefer: respond-async", () => {
  it("answers 202 once the batch is stored in the inbox, judging nothing yet", async () => {
    const answer = await send(batch(0), { prefer: "wait=5, Respond-Async" });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.headers.get("preference-applied")).toBe("respond-async");
    expect(answer.body).toMatchObject({ accepted: 4, invalid: 0, items: [] });
    const rows = await inboxRows();
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.id)).toBe(answer.body.inbox);
    expect(rows[0]).toMatchObject({ events: 4, positions: null, actor: { type: "token" } });
    expect(JSON.parse(rows[0]!.items)).toEqual(batch(0));
    expect(await storedEvents()).toBe(0);
    const backlog = await inbox(new Request(`${origin}/api/v1/fault-events/inbox`, { headers: auth() }), none);
    expect(backlog.status).toBe(200);
    expect(await backlog.json()).toMatchObject({ batches: 1, events: 4, oldestReceivedAt: answer.body.receivedAt, maxEvents: 20_000 });
  });

  it("answers invalid items as the synchronous path does: atomic=all stores nothing, atomic=item the valid ones", async () => {
    const items = [linkDown("sp0-node00", 0, 0, 10), { cluster: "atlas-a3-demo", kind: "no-such-kind" }, linkDown("sp0-node00", 1, 0, 10)];
    const all = await send(items);
    expect(all.status).toBe(422);
    expect(all.body.error).toMatchObject({ code: "invalid_events", details: { counts: { invalid: 1 }, items: [{ index: 1, status: "invalid" }] } });
    expect(await inboxRows()).toHaveLength(0);
    const some = await send(items, { atomic: "item" });
    expect(some.status).toBe(202);
    expect(some.body).toMatchObject({ accepted: 2, invalid: 1, items: [{ index: 1, status: "invalid" }] });
    expect((await inboxRows())[0]).toMatchObject({ events: 2, positions: [0, 2] });
  });

  it("refuses async posts with 429 inbox_full while the inbox holds its bound, before the body is read", async () => {
    const depth = globalThis as typeof globalThis & { rankscopeInboxDepth?: unknown };
    process.env.RANKSCOPE_INBOX_MAX_EVENTS = "4";
    try {
      depth.rankscopeInboxDepth = undefined;
      expect((await send(batch(0))).status).toBe(202);
      // Each instance reads the depth at most once a second: forget this one's reading.
      depth.rankscopeInboxDepth = undefined;
      const refused = await send(batch(1));
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("2");
      expect(refused.body.error).toMatchObject({ code: "inbox_full", details: { events: 4, maxEvents: 4 } });
      expect(await inboxRows()).toHaveLength(1);
      // The synchronous path is not bounded by the inbox.
      expect((await send(batch(1), { prefer: null })).status).toBe(200);
    } finally {
      delete process.env.RANKSCOPE_INBOX_MAX_EVENTS;
      depth.rankscopeInboxDepth = undefined;
    }
  });

  it("leaves the synchronous path as it was without the header", async () => {
    const answer = await send(batch(1), { prefer: null });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("preference-applied")).toBeNull();
    expect(answer.body.counts).toEqual({ created: 4, closed: 0, unchanged: 0, invalid: 0 });
    expect(await inboxRows()).toHaveLength(0);
  });
});

describe("the inbox judge", () => {
  it("judges the waiting batches as one group, exactly once, with one audit entry and one NOTIFY", async () => {
    for (let k = 0; k < 3; k++) expect((await send(batch(k))).status).toBe(202);
    const listener = new pg.Client({ connectionString: testDatabase().url });
    await listener.connect();
    const notices: string[] = [];
    listener.on("notification", (n) => n.channel === faultChannel && notices.push(n.payload ?? ""));
    await listener.query(`listen ${faultChannel}`);
    try {
      expect(await judgeInbox(testDatabase())).toEqual({ batches: 3, events: 12 });
      expect(await storedEvents()).toBe(12);
      expect(await inboxRows()).toHaveLength(0);
      const audits = await ingestAudits();
      expect(audits).toHaveLength(1);
      expect(audits[0]!.details).toMatchObject({ items: 12, changed: 12, clusters: ["atlas-a3-demo"], inbox: { batches: 3 } });
      await expect.poll(() => notices.length).toBe(1);
      expect(JSON.parse(notices[0]!)).toMatchObject({ slug: "atlas-a3-demo", changed: 12 });
      // Nothing left: a second run judges nothing and writes nothing.
      expect(await judgeInbox(testDatabase())).toEqual({ batches: 0, events: 0 });
      expect(await ingestAudits()).toHaveLength(1);
    } finally {
      await listener.end();
    }
  });

  it("groups at most maxGroupEvents, and one actor per group", async () => {
    for (let k = 0; k < 3; k++) await send(batch(k));
    const groups: number[] = [];
    await judgeInbox(testDatabase(), { maxGroupEvents: 8, onGroup: (g) => void groups.push(g.batches) });
    expect(groups).toEqual([2, 1]);
    expect(await ingestAudits()).toHaveLength(2);
  });

  it("changes nothing when a batch is posted again", async () => {
    await send(batch(0));
    await judgeInbox(testDatabase());
    await send(batch(0));
    expect(await judgeInbox(testDatabase())).toEqual({ batches: 1, events: 4 });
    expect(await storedEvents()).toBe(4);
    expect(await inboxRows()).toHaveLength(0);
    // Nothing written: no second audit entry.
    expect(await ingestAudits()).toHaveLength(1);
    expect((await send(batch(0), { prefer: null })).body.counts).toEqual({ created: 0, closed: 0, unchanged: 4, invalid: 0 });
  });

  it("refuses alone, and names in its audit entry, the items only the stored data tells are wrong", async () => {
    await send([linkDown("sp0-node00", 0, 0, 10), linkDown("no-such-node", 0, 0, 10)]);
    const refused: unknown[] = [];
    await judgeInbox(testDatabase(), { onGroup: (g) => void refused.push(...g.refused) });
    expect(await storedEvents()).toBe(1);
    expect(refused).toMatchObject([{ index: 1, error: { code: "unknown_target" } }]);
    expect((await ingestAudits())[0]!.details).toMatchObject({ refused: 1, refusedItems: [{ index: 1, error: { code: "unknown_target" } }] });
  });

  it("never judges while another judge holds the lock, and two judges at once judge each batch once", async () => {
    for (let k = 0; k < 6; k++) await send(batch(k));
    const holder = await other.pool.connect();
    try {
      await holder.query("select pg_advisory_lock($1)", [inboxJudgeLockKey]);
      expect(await judgeInbox(testDatabase())).toBeNull();
      expect(await inboxRows()).toHaveLength(6);
      await holder.query("select pg_advisory_unlock($1)", [inboxJudgeLockKey]);
    } finally {
      holder.release();
    }
    const both = await Promise.all([judgeInbox(testDatabase(), { maxGroupEvents: 4 }), judgeInbox(other, { maxGroupEvents: 4 })]);
    const judged = both.reduce((sum, r) => sum + (r?.batches ?? 0), 0);
    expect(judged).toBe(6);
    expect(await ingestAudits()).toHaveLength(6);
    expect(await storedEvents()).toBe(24);
  });

  it("keeps the batches of a judgement that failed, and judges them on the next run", async () => {
    await send(batch(0));
    await send(batch(1));
    // The judgement fails after its batches were deleted from the inbox, in the same transaction (a crash then).
    await query(`create function fail_once() returns trigger language plpgsql as $$ begin raise exception 'judge crashed'; end $$;
                 create trigger fail_once before insert on fault_events for each statement execute function fail_once()`);
    await expect(judgeInbox(testDatabase())).rejects.toThrow(/judge crashed/);
    expect(await inboxRows()).toHaveLength(2);
    expect(await storedEvents()).toBe(0);
    await query("drop trigger fail_once on fault_events; drop function fail_once()");
    expect(await judgeInbox(testDatabase())).toEqual({ batches: 2, events: 8 });
    expect(await storedEvents()).toBe(8);
  });

  it("runs in the supervisor: stored batches are judged without anyone asking, and stop() ends it", async () => {
    const lines: string[] = [];
    const judge = scheduleInboxJudge(testDatabase().url, (line) => lines.push(line));
    try {
      await send(batch(0));
      await send(batch(1));
      await expect.poll(storedEvents, { timeout: 15_000 }).toBe(8);
      expect(await inboxRows()).toHaveLength(0);
    } finally {
      await judge.stop();
    }
    expect(lines).toEqual([]);
  });
});
