import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { connectDatabase } from "@/db/client";
import { systemActor } from "@/db/queries/audit";
import { ingestFaultEvents } from "@/db/queries/faults";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { faultChannel } from "@/db/schema/fault-event/constants";
import { decodedTypeHeader, gzipJsonAccept } from "@/lib/gzip-answer";
import { demoA3Cluster } from "@/lib/inventory/demo";
import type { SharedAnswers } from "@/lib/shared-answers";
import { withAppDatabase } from "@/test/app-database";
import { origin } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { postedEvents } from "@/test/fault-events";
import { faultRevision, sharedFaultCounts, sharedFaultValue } from "./read-cache";

withAppDatabase();

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
let timeline: Handler;
let health: Handler;
let token = "";
const none = { params: Promise.resolve({}) };
const now = Date.now();
const from = now - 86_400_000;
const { linkDown } = postedEvents(now - 3_600_000);
const answers = () => (globalThis as { rankscopeFaultAnswers?: SharedAnswers<unknown> }).rankscopeFaultAnswers!;

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(check()).toBe(true);
}

beforeAll(async () => {
  ({ GET: timeline } = await import("@/app/api/v1/fault-events/route"));
  ({ GET: health } = await import("@/app/api/v1/fault-events/health/route"));
  const { db } = testDatabase();
  await seedDemo(db, [demoA3Cluster(2, 4)]);
  token = (await createApiToken(db, { name: "cache viewer", role: "viewer" }, systemActor)).token;
  faultRevision("atlas-a3-demo");
  await until(() => faultRevision("atlas-a3-demo") !== undefined);
});

const read = async (handler: Handler, path: string, headers: Record<string, string> = {}) => {
  const response = await handler(new Request(`${origin}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } }), none);
  expect(response.status).toBe(200);
  return { type: response.headers.get("content-type"), body: (await response.json()) as { total: number; targets: unknown[] } };
};
const timelinePath = `/api/v1/fault-events?cluster=atlas-a3-demo&from=${from}&to=${now + 60_000}&state=all`;

/** A batch written by another instance: its own pool; its NOTIFY reaches this one's LISTEN. */
async function writeElsewhere(events: unknown[]): Promise<void> {
  const other = connectDatabase(testDatabase().url);
  try {
    const result = await ingestFaultEvents(other, events, { atomic: "all", actor: systemActor });
    expect(result.counts.created).toBe(events.length);
  } finally {
    await other.pool.end();
  }
}

describe("shared fault reads", () => {
  it("compute once for concurrent callers, and reuse the answer while nothing is ingested", async () => {
    const before = answers()?.computed ?? 0;
    const results = await Promise.all(Array.from({ length: 8 }, () => read(timeline, timelinePath)));
    expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(results[0]!.type).toBe("application/json");
    await read(timeline, timelinePath);
    expect(answers().computed - before).toBe(1);
  });

  it("are never one cluster's answer given for another at the same revision", async () => {
    // Neither cluster was ingested into since the start: both are at the same revision.
    expect(faultRevision("9001")).toBe(faultRevision("9002"));
    const request = new Request(origin);
    const first = await sharedFaultValue(request, "9001", "health", testDatabase(), async () => "of 9001");
    const second = await sharedFaultValue(request, "9002", "health", testDatabase(), async () => "of 9002");
    expect([first, second]).toEqual(["of 9001", "of 9002"]);
  });

  it("are computed again once another instance ingested into the cluster", async () => {
    const first = await read(timeline, timelinePath);
    const revision = faultRevision("atlas-a3-demo");
    await writeElsewhere([linkDown("sp0-node01", 0, 0, null), linkDown("sp0-node01", 1, 10, null)]);
    await until(() => faultRevision("atlas-a3-demo") !== revision);
    const after = await read(timeline, timelinePath);
    expect(after.body.total).toBe(first.body.total + 2);
    const open = await read(health, "/api/v1/fault-events/health?cluster=atlas-a3-demo");
    expect(open.body.targets.length).toBeGreaterThanOrEqual(2);
  });

  it("are not served to a caller who carries its own write's position: it reads afresh", async () => {
    const first = await read(timeline, timelinePath);
    const before = answers().computed;
    await writeElsewhere([linkDown("sp0-node02", 0, 20, null)]);
    // Straight after the write, whether or not this instance heard its NOTIFY yet.
    const own = await read(timeline, timelinePath, { cookie: "rankscope-written=0/16B3748" });
    expect(own.body.total).toBe(first.body.total + 1);
    expect(answers().computed).toBe(before);
  });

  it("are answered gzipped, compressed once, to a caller that asks for a gzip file: the JSON answer's very bytes", async () => {
    const ask = async (accept: string) => {
      const response = await timeline(new Request(`${origin}${timelinePath}`, { headers: { authorization: `Bearer ${token}`, accept } }), none);
      expect(response.status).toBe(200);
      expect(response.headers.get("vary")).toBe("Accept");
      return { response, bytes: Buffer.from(await response.arrayBuffer()) };
    };
    const plain = await ask("application/json");
    const gzipped = await ask(gzipJsonAccept);
    expect(plain.response.headers.get("content-type")).toBe("application/json");
    expect(gzipped.response.headers.get("content-type")).toBe("application/gzip");
    expect(gzipped.response.headers.get(decodedTypeHeader)).toBe("application/json");
    expect(gunzipSync(gzipped.bytes).equals(plain.bytes)).toBe(true);
    const kept = answers().computed;
    expect((await ask(gzipJsonAccept)).bytes.equals(gzipped.bytes)).toBe(true);
    expect(answers().computed).toBe(kept);

    const revision = faultRevision("atlas-a3-demo");
    await writeElsewhere([linkDown("sp0-node03", 0, 30, null)]);
    await until(() => faultRevision("atlas-a3-demo") !== revision);
    const after = await ask(gzipJsonAccept);
    const decoded = JSON.parse(gunzipSync(after.bytes).toString()) as { total: number };
    expect(decoded.total).toBe((JSON.parse(plain.bytes.toString()) as { total: number }).total + 1);
    expect(gunzipSync(after.bytes).equals((await ask("application/json")).bytes)).toBe(true);
  });
});

describe("fault answers shared between instances", () => {
  it("are taken from PostgreSQL by an instance that did not compute them, and computed again once it heard a write", async () => {
    const first = await read(timeline, timelinePath);
    const counts = { ...sharedFaultCounts };
    // Another instance: nothing of this one's memory, the same table.
    (globalThis as { rankscopeFaultAnswers?: unknown }).rankscopeFaultAnswers = undefined;
    const second = await read(timeline, timelinePath);
    expect(second.body).toEqual(first.body);
    expect([sharedFaultCounts.computed - counts.computed, sharedFaultCounts.taken - counts.taken]).toEqual([0, 1]);

    const revision = faultRevision("atlas-a3-demo");
    await writeElsewhere([linkDown("sp0-node01", 2, 40, null)]);
    await until(() => faultRevision("atlas-a3-demo") !== revision);
    (globalThis as { rankscopeFaultAnswers?: unknown }).rankscopeFaultAnswers = undefined;
    const third = await read(timeline, timelinePath);
    expect(third.body.total).toBe(first.body.total + 1);
    expect([sharedFaultCounts.computed - counts.computed, sharedFaultCounts.taken - counts.taken]).toEqual([1, 1]);
  });

  it("are not taken from PostgreSQL after a change heard without its transaction id: computed after it", async () => {
    await read(timeline, timelinePath);
    const counts = { ...sharedFaultCounts };
    const revision = faultRevision("atlas-a3-demo");
    // A notice sent by hand, as a change this instance cannot place: only a snapshot taken after it covers it.
    await testDatabase().pool.query("select pg_notify($1, $2)", [faultChannel, JSON.stringify({ clusterId: 0, slug: "atlas-a3-demo", changed: 1, at: Date.now() })]);
    await until(() => faultRevision("atlas-a3-demo") !== revision);
    (globalThis as { rankscopeFaultAnswers?: unknown }).rankscopeFaultAnswers = undefined;
    await read(timeline, timelinePath);
    expect([sharedFaultCounts.computed - counts.computed, sharedFaultCounts.taken - counts.taken]).toEqual([1, 0]);
  });
});
