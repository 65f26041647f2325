/**
 * Admission control of POST /api/v1/fault-events (server/faults/ingest-admission.ts) against real PostgreSQL:
 * batches past the instance's bound are refused with 429 and Retry-After before their body is read, the accepted
 * ones are stored whole, and feeders that retry the refused ones (and re-send accepted ones) end with every event
 * stored exactly once.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { admitIngest, ingestLoad } from "@/server/faults/ingest-admission";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { postedEvents } from "@/test/fault-events";

withAppDatabase();

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
let post: Handler;
let token = "";
const none = { params: Promise.resolve({}) };
const limitNames = ["RANKSCOPE_INGEST_CONCURRENCY", "RANKSCOPE_INGEST_QUEUE", "RANKSCOPE_INGEST_WAIT_MS", "RANKSCOPE_INGEST_EVENTS_PER_SECOND"] as const;

beforeAll(async () => {
  ({ POST: post } = await import("./route"));
  const { db } = testDatabase();
  await seedDemo(db, [demoA3Cluster(2, 4)]);
  token = (await createApiToken(db, { name: "admission feeder", role: "editor" }, systemActor)).token;
});

afterEach(() => {
  for (const name of limitNames) delete process.env[name];
});

function limit(concurrency: number, queue: number, waitMs = 10_000): void {
  process.env.RANKSCOPE_INGEST_CONCURRENCY = String(concurrency);
  process.env.RANKSCOPE_INGEST_QUEUE = String(queue);
  process.env.RANKSCOPE_INGEST_WAIT_MS = String(waitMs);
}

const { linkDown } = postedEvents(Date.now() - 3_600_000);
const servers = ["sp0-node00", "sp0-node01", "sp0-node02", "sp0-node03"];

/** Batch `n` of `tag`: 40 distinct events with ids the device plugin gave them (`<tag>-<n>-<i>`). */
const batchOf = (tag: string, n: number) =>
  Array.from({ length: 40 }, (_, i) => linkDown(servers[i % 4]!, (n + i) % 16, n * 100 + i, n * 100 + i + 5, { id: `${tag}-${n}-${i}` }));

function request(events: unknown[], signal?: AbortSignal): Request {
  const base = jsonRequest("/api/v1/fault-events?atomic=all", "POST", events, { authorization: `Bearer ${token}` });
  return signal ? new Request(base, { signal }) : base;
}

interface Answer {
  n: number;
  status: number;
  retryAfter: string | null;
  bodyUsed: boolean;
  body: { counts?: Record<string, number>; error?: { code: string; message: string; details?: { retryAfterSeconds?: number } } };
}

async function send(n: number, events: unknown[], signal?: AbortSignal): Promise<Answer> {
  const sent = request(events, signal);
  const response = await post(sent, none);
  return { n, status: response.status, retryAfter: response.headers.get("retry-after"), bodyUsed: sent.bodyUsed, body: (await response.json()) as Answer["body"] };
}

async function storedIds(tag: string): Promise<string[]> {
  const { rows } = await testDatabase().pool.query<{ id: string }>("select id from fault_events where id like $1 order by id", [`simulator:${tag}-%`]);
  return rows.map((r) => r.id);
}

const idsOf = (tag: string, batches: number[]) => batches.flatMap((n) => batchOf(tag, n).map((_, i) => `simulator:${tag}-${n}-${i}`)).sort();

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

describe("POST /api/v1/fault-events past the instance's ingestion bound", () => {
  it("refuses the batches past the running ones and the queue with 429 and Retry-After, before reading their body, and stores the accepted ones whole", async () => {
    limit(1, 2);
    // A batch of another feeder holds the one turn, so the six below find it taken.
    const held = await admitIngest();
    const answered: Answer[] = [];
    const pending = [0, 1, 2, 3, 4, 5].map((n) => send(n, batchOf("busy", n)).then((answer) => (answered.push(answer), answer)));
    // Two wait for the turn; the four others are refused at once, while it is still held.
    await until(() => ingestLoad().waiting === 2 && answered.length === 4);
    expect(answered.map((a) => a.status)).toEqual([429, 429, 429, 429]);
    held();
    const answers = await Promise.all(pending);
    const accepted = answers.filter((a) => a.status === 200).map((a) => a.n);
    const refused = answers.filter((a) => a.status !== 200);
    expect(accepted).toHaveLength(2);
    for (const answer of refused) {
      expect(answer.retryAfter).toBe("1");
      expect(answer.body.error).toMatchObject({ code: "ingest_busy", details: { retryAfterSeconds: 1 } });
      expect(answer.body.error!.message).toMatch(/nothing was written/);
      expect(answer.bodyUsed).toBe(false);
    }
    for (const answer of answers.filter((a) => a.status === 200)) expect(answer.body.counts).toMatchObject({ created: 40, invalid: 0 });
    expect(await storedIds("busy")).toEqual(idsOf("busy", accepted));
    expect(ingestLoad()).toEqual({ running: 0, waiting: 0 });
  });

  it("refuses a batch that waited past RANKSCOPE_INGEST_WAIT_MS, and one whose client went away leaves the queue", async () => {
    limit(1, 4, 200);
    const held = await admitIngest();
    try {
      const started = performance.now();
      const late = await send(0, batchOf("late", 0));
      expect(late.status).toBe(429);
      expect(late.retryAfter).toBe("1");
      expect(late.body.error!.code).toBe("ingest_busy");
      expect(performance.now() - started).toBeGreaterThanOrEqual(190);
      limit(1, 4);
      const controller = new AbortController();
      const gone = send(1, batchOf("late", 1), controller.signal);
      await until(() => ingestLoad().waiting === 1);
      controller.abort();
      expect((await gone).status).toBe(499);
      expect(ingestLoad()).toEqual({ running: 1, waiting: 0 });
    } finally {
      held();
    }
    expect(await storedIds("late")).toEqual([]);
    expect(ingestLoad()).toEqual({ running: 0, waiting: 0 });
  });

  it("converges to exactly the set of events when feeders retry what was refused and re-send what was accepted", async () => {
    limit(1, 1);
    const batches = [0, 1, 2, 3, 4, 5, 6, 7];
    // Every batch sent at once; a refused one is sent again after Retry-After, an accepted one once more (an
    // acknowledgement the feeder did not see), all while the others are still arriving.
    const acknowledged = new Set<number>();
    let refusals = 0;
    let resentAccepted = 0;
    const feeder = async (n: number) => {
      let resent = false;
      for (let attempt = 0; attempt < 50; attempt++) {
        const answer = await send(n, batchOf("retry", n));
        if (answer.status === 429) {
          refusals++;
          expect(answer.retryAfter).toBe("1");
          // Retry-After says 1 s; a shorter pause keeps the test short and the batches colliding.
          await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 60));
          continue;
        }
        expect(answer.status).toBe(200);
        if (acknowledged.has(n)) {
          expect(answer.body.counts).toMatchObject({ created: 0, unchanged: 40 });
          resentAccepted++;
        } else {
          expect(answer.body.counts).toMatchObject({ created: 40, unchanged: 0 });
          acknowledged.add(n);
        }
        if (resent) return;
        resent = true;
      }
      throw new Error(`batch ${n} was never taken`);
    };
    await Promise.all(batches.map(feeder));
    expect(refusals).toBeGreaterThan(0);
    expect(resentAccepted).toBe(batches.length);
    const stored = await storedIds("retry");
    expect(stored).toEqual(idsOf("retry", batches));
    expect(new Set(stored).size).toBe(batches.length * 40);
  });
});

describe("the events/s budget (RANKSCOPE_INGEST_EVENTS_PER_SECOND)", () => {
  it("refuses a batch past it with 429 ingest_over_budget and Retry-After, writes nothing, and takes it once the budget is back", async () => {
    // 10 events/s: a batch of 40 (four seconds' budget) is taken from a full bucket, the next is refused for 4 s.
    process.env.RANKSCOPE_INGEST_EVENTS_PER_SECOND = "10";
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await send(0, batchOf("budget", 0))).status).toBe(200);
    const refused = await send(2, batchOf("budget", 2));
    expect(refused.status).toBe(429);
    expect(refused.body.error?.code).toBe("ingest_over_budget");
    expect(refused.body.error?.message).toContain("10 events/s");
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(2);
    expect(await storedIds("budget")).toEqual(idsOf("budget", [0]));
    await new Promise((resolve) => setTimeout(resolve, Number(refused.retryAfter) * 1000));
    expect((await send(2, batchOf("budget", 2))).status).toBe(200);
    expect(await storedIds("budget")).toEqual(idsOf("budget", [0, 2]));
  });

  it("is off at 0", async () => {
    process.env.RANKSCOPE_INGEST_EVENTS_PER_SECOND = "0";
    for (let n = 0; n < 4; n++) expect((await send(n, batchOf("unbudgeted", n))).status).toBe(200);
  });
});
