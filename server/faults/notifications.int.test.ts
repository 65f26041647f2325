import { describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import type { FaultNotice } from "@/db/queries/faults";
import { faultChannel } from "@/db/schema/fault-event/constants";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { reconnectDelayMs, subscribeFaults } from "./notifications";

withAppDatabase();

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, ms = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > ms) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the LISTEN connection", () => {
  it("backs off 0.5 s, doubling up to 30 s", () => {
    expect([1, 2, 3, 7, 20].map(reconnectDelayMs)).toEqual([500, 1000, 2000, 30_000, 30_000]);
  });

  it("comes back by itself when PostgreSQL drops it, and delivers notices again", async () => {
    const { pool } = testDatabase();
    const received: FaultNotice[] = [];
    const unsubscribe = await subscribeFaults((notice) => received.push(notice));
    try {
      const notify = (changed: number) => pool.query("select pg_notify($1, $2)", [faultChannel, JSON.stringify({ clusterId: 1, slug: "x", changed, at: Date.now() })]);
      await notify(1);
      await until(() => (received.some((n) => n.changed === 1) ? true : undefined));
      // What a PostgreSQL restart does to it: the server ends the connection.
      const listener = async () =>
        (await pool.query<{ pid: number }>("select pid from pg_stat_activity where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()")).rows[0]?.pid;
      const before = await until(listener);
      await pool.query("select pg_terminate_backend($1)", [before]);
      const after = await until(async () => {
        const pid = await listener();
        return pid !== undefined && pid !== before ? pid : undefined;
      });
      expect(after).not.toBe(before);
      await notify(2);
      await until(() => (received.some((n) => n.changed === 2) ? true : undefined));
    } finally {
      unsubscribe();
    }
  });
});

describe("GET /api/v1/events", () => {
  it("answers 404 in the error shape for an unknown cluster instead of streaming nothing", async () => {
    const { token } = await createApiToken(testDatabase().db, { name: "events reader", role: "viewer" }, systemActor);
    const { GET } = await import("@/app/api/v1/events/route");
    const response = await GET(jsonRequest("/api/v1/events?cluster=nope", "GET", undefined, { authorization: `Bearer ${token}` }), { params: Promise.resolve({}) });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "not_found", message: 'no cluster "nope"' } });
  });
});
