import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, type DatabaseHandle } from "@/db/client";
import { pruneRateLimits } from "@/db/queries/rate-limits";
import { withAppDatabase } from "@/test/app-database";
import { testDatabase } from "@/test/database";
import { limits, RateLimiter } from "./rate-limit";

withAppDatabase();

// Two connection pools on the same database stand for two Rankscope instances behind a load balancer.
let one: DatabaseHandle;
let two: DatabaseHandle;
beforeAll(() => {
  one = connectDatabase(testDatabase().url, { max: 4 });
  two = connectDatabase(testDatabase().url, { max: 4 });
});
afterAll(async () => {
  await Promise.all([one.pool.end(), two.pool.end()]);
});

const pair = (name: string, limit: number, windowMs: number) =>
  [new RateLimiter(name, limit, windowMs, () => one.db), new RateLimiter(name, limit, windowMs, () => two.db)] as const;

const rows = async (prefix: string) =>
  (await testDatabase().pool.query<{ key: string; hits: number }>("select key, hits from rate_limit_windows where starts_with(key, $1) order by key", [prefix])).rows;

describe("the shared rate limiter", () => {
  it("counts hits on two instances against one limit, per key", async () => {
    const [a, b] = pair("shared", 5, 60_000);
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) waits.push(await (i % 2 ? b : a).hit("token:1"));
    expect(waits.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(waits[5]).toBeGreaterThan(0);
    expect(waits[5]).toBeLessThanOrEqual(60_000);
    expect(waits[6]).toBeGreaterThan(0);
    expect(await b.hit("token:2")).toBe(0); // another key has its own count
    expect(await rows("shared:")).toEqual([
      { key: "shared:token:1", hits: 7 },
      { key: "shared:token:2", hits: 1 },
    ]);
  });

  it("lets exactly the limit through when both instances hit at once", async () => {
    const [a, b] = pair("burst", 20, 60_000);
    const waits = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? b : a).hit("ip:10.0.0.7")));
    expect(waits.filter((w) => w === 0)).toHaveLength(20);
    expect(await rows("burst:")).toEqual([{ key: "burst:ip:10.0.0.7", hits: 60 }]);
  });

  it("starts a new window at the first hit after the old one ended", async () => {
    const [a, b] = pair("window", 2, 1_000);
    expect([await a.hit("k"), await b.hit("k")]).toEqual([0, 0]);
    const refused = await a.hit("k");
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThanOrEqual(1_000);
    await new Promise((resolve) => setTimeout(resolve, refused + 50));
    expect(await b.hit("k")).toBe(0);
  });

  it("keeps limiters apart by name and prunes ended windows", async () => {
    const [a] = pair("short", 1, 1_000);
    const [other] = pair("long", 1, 60_000);
    await a.hit("x");
    await other.hit("x");
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await pruneRateLimits(one.db)).toBeGreaterThanOrEqual(1);
    expect((await rows("short:")).length).toBe(0);
    expect(await rows("long:")).toEqual([{ key: "long:x", hits: 1 }]);
    await other.reset();
    expect(await rows("long:")).toEqual([]);
  });

  it("is what the sign-in burst limit and the token write limit use", async () => {
    expect(limits.signIn).toMatchObject({ name: "sign-in", limit: 30, windowMs: 60_000 });
    expect(limits.tokenWrites).toMatchObject({ name: "token-writes", limit: 1800, windowMs: 60_000 });
    // A second instance's limiter of the same name sees the app's hits.
    const elsewhere = new RateLimiter("sign-in", 30, 60_000, () => two.db);
    for (let i = 0; i < 30; i++) expect(await limits.signIn.hit("ip:192.0.2.1")).toBe(0);
    expect(await elsewhere.hit("ip:192.0.2.1")).toBeGreaterThan(0);
  });

  it("keeps its table out of the WAL (UNLOGGED)", async () => {
    const { rows: found } = await testDatabase().pool.query<{ persistence: string }>(
      "select relpersistence as persistence from pg_class where relname = 'rate_limit_windows'",
    );
    expect(found).toEqual([{ persistence: "u" }]);
  });
});
