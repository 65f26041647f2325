import { afterEach, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { faultChannel } from "@/db/schema/fault-event/constants";
import { withAppDatabase } from "@/test/app-database";
import { origin } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { randomUUID } from "node:crypto";
import { takeStreamLease } from "@/db/queries/event-stream-leases";
import { openStreams } from "./event-streams";
import { renewLeases, streamLeaseTiming } from "./stream-leases";

withAppDatabase();

const settings = ["RANKSCOPE_SSE_MAX_STREAMS", "RANKSCOPE_SSE_MAX_STREAMS_PER_USER", "RANKSCOPE_SSE_BUFFER_BYTES"] as const;
const aborts: AbortController[] = [];

afterEach(() => {
  for (const abort of aborts.splice(0)) abort.abort();
  for (const name of settings) delete process.env[name];
});

async function token(name: string): Promise<string> {
  return (await createApiToken(testDatabase().db, { name, role: "viewer" }, systemActor)).token;
}

/** GET /api/v1/events through the real route handler; the stream is aborted after the test. */
async function open(bearer: string): Promise<Response> {
  const { GET } = await import("@/app/api/v1/events/route");
  const abort = new AbortController();
  aborts.push(abort);
  return GET(new Request(`${origin}/api/v1/events?max=120`, { headers: { authorization: `Bearer ${bearer}` }, signal: abort.signal }), { params: Promise.resolve({}) });
}

const notify = (changed: number) => testDatabase().pool.query("select pg_notify($1, $2)", [faultChannel, JSON.stringify({ clusterId: 1, slug: "x", changed, at: Date.now() })]);

describe("the caps on event streams", () => {
  it("refuses past the per-user cap with 429 and past the per-instance cap with 503, both with Retry-After, and frees a slot when a stream ends", async () => {
    process.env.RANKSCOPE_SSE_MAX_STREAMS = "3";
    process.env.RANKSCOPE_SSE_MAX_STREAMS_PER_USER = "2";
    const [a, b, c] = [await token("caps a"), await token("caps b"), await token("caps c")];
    expect(openStreams()).toBe(0);
    expect((await open(a)).status).toBe(200);
    expect((await open(a)).status).toBe(200);
    const third = await open(a);
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("30");
    expect(await third.json()).toMatchObject({ error: { code: "too_many_streams", details: { limit: 2, retryAfterSeconds: 30 } } });

    expect((await open(b)).status).toBe(200);
    expect(openStreams()).toBe(3);
    const full = await open(c);
    expect(full.status).toBe(503);
    expect(full.headers.get("retry-after")).toBe("10");
    expect(await full.json()).toMatchObject({ error: { code: "too_many_streams", details: { limit: 3 } } });

    aborts[0]!.abort(); // one of a's streams ends: a slot is free again
    expect(openStreams()).toBe(2);
    expect((await open(c)).status).toBe(200);
  });

  it("shares one LISTEN connection among all the streams of the process", async () => {
    const bearer = await token("one listen");
    for (let i = 0; i < 5; i++) expect((await open(bearer)).status).toBe(200);
    const { rows } = await testDatabase().pool.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'rankscope-listen' and pid <> pg_backend_pid()",
    );
    expect(rows[0]!.n).toBe(1);
  });
});

describe("the per-user cap across instances", () => {
  const leaseRows = async (owner: string) =>
    (await testDatabase().pool.query<{ instance_id: string; live: boolean }>("select instance_id, expires_at > now() as live from event_stream_leases where owner = $1", [owner])).rows;
  /** A stream of `owner` held by another instance (another process sharing the database). */
  const elsewhere = (owner: string, instanceId = "instance-b") =>
    takeStreamLease(testDatabase().pool, { id: randomUUID(), owner, instanceId, limit: 100, ttlSeconds: streamLeaseTiming.ttlSeconds });

  it("counts the owner's streams on every instance (leases in PostgreSQL): 429 with Retry-After past it, whichever instance holds them", async () => {
    process.env.RANKSCOPE_SSE_MAX_STREAMS_PER_USER = "3";
    const bearer = await token("across");
    const owner = `token:${(await testDatabase().pool.query<{ id: number }>("select id from api_tokens where name = 'across'")).rows[0]!.id}`;
    await elsewhere(owner);
    await elsewhere(owner, "instance-c");
    expect((await open(bearer)).status).toBe(200);
    expect(await leaseRows(owner)).toHaveLength(3);
    const refused = await open(bearer);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(await refused.json()).toMatchObject({ error: { code: "too_many_streams", details: { limit: 3, open: 3, retryAfterSeconds: 30 } } });
    expect(openStreams()).toBe(1);

    // This instance's stream ends: its lease is deleted, and the slot is free for a stream anywhere.
    aborts[0]!.abort();
    for (let i = 0; i < 50 && (await leaseRows(owner)).length > 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await leaseRows(owner)).toHaveLength(2);
    expect((await open(bearer)).status).toBe(200);
  });

  it("stops counting the streams of an instance that died once their leases expire, and renews the live ones", async () => {
    process.env.RANKSCOPE_SSE_MAX_STREAMS_PER_USER = "2";
    const bearer = await token("dead instance");
    const owner = `token:${(await testDatabase().pool.query<{ id: number }>("select id from api_tokens where name = 'dead instance'")).rows[0]!.id}`;
    await elsewhere(owner, "killed");
    await elsewhere(owner, "killed");
    expect((await open(bearer)).status).toBe(429);
    // The killed instance renews nothing: 45 s later its leases are past their expiry.
    await testDatabase().pool.query("update event_stream_leases set expires_at = now() - interval '1 second' where instance_id = 'killed'");
    expect((await open(bearer)).status).toBe(200);
    await testDatabase().pool.query("update event_stream_leases set expires_at = now() + interval '5 seconds' where instance_id <> 'killed'");
    await renewLeases(); // this instance's heartbeat: extends its lease, deletes the expired ones
    const rows = await leaseRows(owner);
    expect(rows.map((r) => r.instance_id === "killed")).toEqual([false]);
    const { rows: left } = await testDatabase().pool.query<{ seconds: number }>("select extract(epoch from expires_at - now())::int as seconds from event_stream_leases where owner = $1", [owner]);
    expect(left[0]!.seconds).toBeGreaterThan(30);
  });

  it("lets exactly the cap through when many streams of one owner are opened at once through two instances", async () => {
    const { pool } = testDatabase();
    const tries = Array.from({ length: 24 }, (_, i) =>
      takeStreamLease(pool, { id: randomUUID(), owner: "user:racing", instanceId: i % 2 ? "instance-a" : "instance-b", limit: 5, ttlSeconds: 45 }),
    );
    const results = await Promise.all(tries);
    expect(results.filter((r) => r.taken)).toHaveLength(5);
    expect((await leaseRows("user:racing")).length).toBe(5);
  });

  it("keeps the leases out of the WAL (UNLOGGED: live state, gone with the streams after a crash)", async () => {
    const { rows } = await testDatabase().pool.query<{ persistence: string }>("select relpersistence as persistence from pg_class where relname = 'event_stream_leases'");
    expect(rows[0]?.persistence).toBe("u");
  });
});

describe("a client that does not read", () => {
  it("is dropped once its queue would pass RANKSCOPE_SSE_BUFFER_BYTES, while a reading client gets every notice", async () => {
    process.env.RANKSCOPE_SSE_BUFFER_BYTES = "4096";
    const bearer = await token("slow and fast");
    const slow = (await open(bearer)).body!.getReader(); // never read until the end
    const fast = (await open(bearer)).body!.getReader();
    expect(openStreams()).toBe(2);
    const decoder = new TextDecoder();
    let text = "";
    const heard = (n: number) => text.includes(`"changed":${n},`);
    const readUntil = async (n: number) => {
      while (!heard(n)) {
        const { value, done } = await fast.read();
        if (done) throw new Error(`the reading client's stream ended before notice ${n}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    // Rounds of 10 notices (about 1 KB): the reading client keeps up, the other's queue passes 4 KB by the 5th round.
    for (let round = 0; round < 10; round++) {
      for (let i = 1; i <= 10; i++) await notify(round * 10 + i);
      await readUntil(round * 10 + 10);
    }
    for (let n = 1; n <= 100; n++) expect(heard(n), `notice ${n}`).toBe(true);
    expect(openStreams()).toBe(1);
    await expect(slow.read()).rejects.toThrow(/did not read 4096 bytes/);
  });
});
