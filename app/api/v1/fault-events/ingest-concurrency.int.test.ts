/**
 * Batches posted at the same time (a feeder with parallel senders): each batch inserts before it takes the series
 * locks, so these check that the judgement, the ends and idempotency come out as if the batches had been sent one
 * after the other, whatever order the database ran them in.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { postedEvents } from "@/test/fault-events";

withAppDatabase();

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
let post: Handler;
let token = "";
const none = { params: Promise.resolve({}) };

beforeAll(async () => {
  // The instance's ingestion bound (server/faults/ingest-admission.ts) would run these batches one at a time.
  process.env.RANKSCOPE_INGEST_CONCURRENCY = "8";
  ({ POST: post } = await import("./route"));
  const { db } = testDatabase();
  await seedDemo(db, [demoA3Cluster(2, 4)]);
  token = (await createApiToken(db, { name: "parallel feeder", role: "editor" }, systemActor)).token;
});

interface Counts {
  created: number;
  closed: number;
  unchanged: number;
  invalid: number;
}

async function send(events: unknown[]): Promise<{ counts: Counts; items: { status: string; id?: string }[] }> {
  const response = await post(jsonRequest("/api/v1/fault-events?atomic=all", "POST", events, { authorization: `Bearer ${token}` }), none);
  const body = (await response.json()) as { counts: Counts; items: { status: string; id?: string }[] };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

/** Sends the batches all at once and waits for every answer. */
const sendTogether = (batches: unknown[][]) => Promise.all(batches.map(send));

const t0 = Date.parse("2026-11-10T00:00:00Z");
const { at, linkDown } = postedEvents(t0);
const linkUp = (server: string, die: number, end: number) => ({
  cluster: "atlas-a3-demo",
  kind: "roce-link-up",
  source: "simulator",
  target: { server, die },
  endedAt: at(end),
});

interface Stored {
  id: string;
  began: number;
  ended: number | null;
  level: string;
  rule: string;
  episode: string;
}

async function stored(server: string, die: number): Promise<Stored[]> {
  const { rows } = await testDatabase().pool.query<{ id: string; began_at: Date; ended_at: Date | null; level: string; rule: string; episode_id: string }>(
    "select id, began_at, ended_at, level, rule, episode_id from fault_events where target_key = $1 order by began_at, id",
    [`die:${server}/${die}`],
  );
  return rows.map((r) => ({ id: r.id, began: (r.began_at.getTime() - t0) / 1000, ended: r.ended_at ? (r.ended_at.getTime() - t0) / 1000 : null, level: r.level, rule: r.rule, episode: r.episode_id }));
}

describe("parallel POST /api/v1/fault-events on the same series", () => {
  it("escalates the fifth fault in 24 h however the five arrive", async () => {
    // Six dies, five faults each an hour apart; batch k holds the k-th fault of every die; all five batches at once.
    const dies = [0, 1, 2, 3, 4, 5];
    const batches = [4, 3, 2, 1, 0].map((hour) => dies.map((die) => linkDown("sp0-node03", die, hour * 3600, hour * 3600 + 5)));
    const answers = await sendTogether(batches);
    expect(answers.reduce((sum, a) => sum + a.counts.created, 0)).toBe(30);
    for (const die of dies) {
      const events = await stored("sp0-node03", die);
      expect(events.map((e) => e.level)).toEqual(["NotHandleFault", "NotHandleFault", "NotHandleFault", "NotHandleFault", "ManuallySeparateNPU"]);
      expect(events[4]!.rule).toBe("fault-frequency");
    }
  });

  it("merges flaps sent in separate batches into one escalated fault", async () => {
    const batches = [90, 0, 60, 30].map((s) => [linkDown("sp1-node00", 1, 100_000 + s, 100_000 + s + 8)]);
    await sendTogether(batches);
    const events = await stored("sp1-node00", 1);
    expect(events).toHaveLength(4);
    expect(new Set(events.map((e) => e.episode))).toEqual(new Set([events[0]!.id]));
    expect(events.every((e) => e.level === "PreSeparateNPU" && e.rule === "fault-duration")).toBe(true);
  });

  it("stores an event sent twice at once once, open, and says so", async () => {
    const open = linkDown("sp1-node01", 2, 200_000, null);
    const answers = await sendTogether([[open], [open], [open]]);
    expect(answers.map((a) => a.counts.created).sort()).toEqual([0, 0, 1]);
    expect(answers.map((a) => a.counts.unchanged).sort()).toEqual([0, 1, 1]);
    const events = await stored("sp1-node01", 2);
    expect(events).toHaveLength(1);
    expect(events[0]!.ended).toBeNull();
  });

  it("closes an open event once when its end and a re-send carrying the end arrive together", async () => {
    await send([linkDown("sp1-node02", 3, 300_000, null)]);
    const answers = await sendTogether([[linkUp("sp1-node02", 3, 300_012)], [linkDown("sp1-node02", 3, 300_000, 300_012)]]);
    const statuses = answers.map((a) => a.items[0]!.status).sort();
    expect(statuses).toEqual(["closed", "unchanged"]);
    const events = await stored("sp1-node02", 3);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ ended: 12 + 300_000, level: "NotHandleFault", rule: "within-fault-timeout" });
  });

  it("does not lose an end that arrives with a later begin of the same series", async () => {
    await send([linkDown("sp1-node03", 4, 400_000, null)]);
    // The end (12 s later) belongs to the stored event; the new begin comes after it and stays open.
    const [closing, opening] = await sendTogether([[linkUp("sp1-node03", 4, 400_012)], [linkDown("sp1-node03", 4, 400_200, null)]]);
    expect(closing!.counts).toMatchObject({ closed: 1, invalid: 0 });
    expect(opening!.counts).toMatchObject({ created: 1 });
    const events = await stored("sp1-node03", 4);
    expect(events.map((e) => [e.began - 400_000, e.ended === null ? null : e.ended - 400_000])).toEqual([
      [0, 12],
      [200, null],
    ]);
    // 188 s apart, more than the 60 s recover timeout: two faults.
    expect(new Set(events.map((e) => e.episode)).size).toBe(2);
  });
});

describe("an end in the batch of its begin", () => {
  it("closes that begin (the batch inserts before it applies ends); a re-send of the batch changes nothing", async () => {
    const batch = [linkDown("sp1-node03", 9, 500_000, null), linkUp("sp1-node03", 9, 500_030)];
    const first = await send(batch);
    expect(first.items.map((i) => i.status)).toEqual(["created", "closed"]);
    expect((await send(batch)).counts).toMatchObject({ created: 0, closed: 0, unchanged: 2, invalid: 0 });
    const events = await stored("sp1-node03", 9);
    expect(events).toHaveLength(1);
    // 30 s down: past the 20 s fault timeout.
    expect(events[0]).toMatchObject({ began: 500_000, ended: 500_030, level: "PreSeparateNPU", rule: "fault-duration" });
  });
});
