import { describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import type { FaultNotice } from "@/db/queries/faults";
import { faultChannel } from "@/db/schema/fault-event/constants";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest, origin } from "@/test/auth";
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

  it("comes back by itself when PostgreSQL drops it, tells subscribers to resync once, and delivers notices again", async () => {
    const { pool } = testDatabase();
    const received: FaultNotice[] = [];
    let resyncs = 0;
    const unsubscribe = await subscribeFaults((notice) => received.push(notice), () => resyncs++);
    try {
      const notify = (changed: number) => pool.query("select pg_notify($1, $2)", [faultChannel, JSON.stringify({ clusterId: 1, slug: "x", changed, at: Date.now() })]);
      await notify(1);
      await until(() => (received.some((n) => n.changed === 1) ? true : undefined));
      // What a PostgreSQL restart does to it: the server ends the connection.
      const listener = async () =>
        (await pool.query<{ pid: number }>("select pid from pg_stat_activity where datname = current_database() and application_name = 'rankscope-listen' and pid <> pg_backend_pid()")).rows[0]?.pid;
      const before = await until(listener);
      expect(resyncs).toBe(0);
      await pool.query("select pg_terminate_backend($1)", [before]);
      const after = await until(async () => {
        const pid = await listener();
        return pid !== undefined && pid !== before ? pid : undefined;
      });
      expect(after).not.toBe(before);
      await until(() => (resyncs > 0 ? true : undefined));
      expect(resyncs).toBe(1);
      await notify(2);
      await until(() => (received.some((n) => n.changed === 2) ? true : undefined));
    } finally {
      unsubscribe();
    }
  });
});

/** The LISTEN connection's backend, once it is in place. */
async function listenerPid(): Promise<number> {
  const { pool } = testDatabase();
  return until(async () => (await pool.query<{ pid: number }>("select pid from pg_stat_activity where datname = current_database() and application_name = 'rankscope-listen' and pid <> pg_backend_pid()")).rows[0]?.pid);
}

describe("GET /api/v1/events", () => {
  it("sends `event: resync` to open streams when the LISTEN connection is back after a loss", async () => {
    const { token } = await createApiToken(testDatabase().db, { name: "events resync", role: "viewer" }, systemActor);
    const { GET } = await import("@/app/api/v1/events/route");
    const abort = new AbortController();
    const response = await GET(new Request(`${origin}/api/v1/events?max=60`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal }), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const readUntil = async (marker: string) => {
      while (!text.includes(marker)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${marker}`);
        text += decoder.decode(value);
      }
    };
    try {
      await readUntil(": connected");
      expect(text).not.toContain("event: resync");
      await testDatabase().pool.query("select pg_terminate_backend($1)", [await listenerPid()]);
      await readUntil("event: resync");
      expect(text).toMatch(/event: resync\ndata: \{"at":\d+\}\n\n/);
    } finally {
      abort.abort();
      await reader.cancel().catch(() => {});
    }
  });

  it("answers 404 in the error shape for an unknown cluster instead of streaming nothing", async () => {
    const { token } = await createApiToken(testDatabase().db, { name: "events reader", role: "viewer" }, systemActor);
    const { GET } = await import("@/app/api/v1/events/route");
    const response = await GET(jsonRequest("/api/v1/events?cluster=nope", "GET", undefined, { authorization: `Bearer ${token}` }), { params: Promise.resolve({}) });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "not_found", message: 'no cluster "nope"' } });
  });
});
