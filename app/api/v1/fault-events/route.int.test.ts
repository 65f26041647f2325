/**
 * POST /api/v1/fault-events against PostgreSQL: ingestion and its judgement, per-item errors, the demo seed's day
 * taken in through it, its audit entries, and the dry run of the CSV import.
 */
import { describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { at, auth, linkDown, postFaultEvents, send, t0, timeline, withFaultRoutes, type Loose } from "@/test/fault-routes";

withAppDatabase();
withFaultRoutes();

describe("POST /api/v1/fault-events", () => {
  it("needs a token or session with the editor role", async () => {
    const anonymous = await postFaultEvents(jsonRequest("/api/v1/fault-events", "POST", []));
    expect(anonymous.status).toBe(401);
    expect((await send([linkDown("sp0-node00", 0, 0, 5)], "all", "viewer")).status).toBe(403);
  });

  it("stores events, and a re-sent batch changes nothing and says so", async () => {
    const batch = [linkDown("sp0-node00", 0, 0, 10), linkDown("sp0-node00", 1, 0, 45), { ...linkDown("sp0-node00", 2, 0, null), id: "collector-42" }];
    const first = await send(batch);
    expect(first.status).toBe(200);
    expect(first.body.counts).toEqual({ created: 3, closed: 0, unchanged: 0, invalid: 0 });
    expect(first.body.changed).toBe(true);
    expect(first.body.items[2].id).toBe("simulator:collector-42");
    const again = await send(batch);
    expect(again.body).toMatchObject({ changed: false, counts: { created: 0, closed: 0, unchanged: 3, invalid: 0 } });
    expect(again.body.items.map((i: { id: string }) => i.id)).toEqual(first.body.items.map((i: { id: string }) => i.id));
  });

  it("judges with the escalation rules: 10 s stays NotHandleFault, 45 s is PreSeparateNPU", async () => {
    const { events } = await timeline(`from=${at(-60)}&to=${at(120)}&target=sp0-node00/`);
    const byDie = new Map(events.map((e) => [e.deviceId, e]));
    expect(byDie.get(0)).toMatchObject({ level: "NotHandleFault", rule: "within-fault-timeout" });
    expect(byDie.get(1)).toMatchObject({ level: "PreSeparateNPU", rule: "fault-duration" });
    // The open one has been open for years by now: judged as time passes.
    expect(byDie.get(2)).toMatchObject({ level: "PreSeparateNPU", rule: "fault-duration", endedAt: null });
  });

  it("closes an open begin event with its end event (link up), idempotently", async () => {
    await send([linkDown("sp0-node01", 3, 100, null)]);
    const up = { cluster: "atlas-a3-demo", kind: "roce-link-up", source: "simulator", target: { server: "sp0-node01", die: 3 }, endedAt: at(112) };
    const closed = await send([up]);
    expect(closed.body.counts).toMatchObject({ closed: 1 });
    expect((await send([up])).body.counts).toMatchObject({ unchanged: 1, closed: 0 });
    const { events } = await timeline(`from=${at(90)}&to=${at(200)}&target=sp0-node01/3`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ endedAt: t0 + 112_000, level: "NotHandleFault" });
    const orphan = await send([{ ...up, target: { server: "sp0-node01", die: 4 } }], "item");
    expect(orphan.body.items[0]).toMatchObject({ status: "invalid", error: { code: "no_open_event" } });
  });

  it("merges flaps within the recover timeout into one escalated fault", async () => {
    const flaps = [0, 30, 60, 90].map((s) => linkDown("sp0-node02", 5, 1000 + s, 1000 + s + 8));
    await send(flaps);
    const { events } = await timeline(`from=${at(990)}&to=${at(1200)}&target=sp0-node02/5`);
    expect(new Set(events.map((e) => e.episodeId)).size).toBe(1);
    expect(events.every((e) => e.level === "PreSeparateNPU" && e.rule === "fault-duration")).toBe(true);
  });

  it("escalates the fifth fault of a code on a die within 24 h to ManuallySeparateNPU", async () => {
    await send([0, 1, 2, 3, 4].map((h) => linkDown("sp1-node00", 7, 5000 + h * 3600, 5000 + h * 3600 + 5)));
    const { events } = await timeline(`from=${at(4000)}&to=${at(5000 + 5 * 3600)}&target=sp1-node00/7`);
    expect(events.map((e) => e.level)).toEqual(["NotHandleFault", "NotHandleFault", "NotHandleFault", "NotHandleFault", "ManuallySeparateNPU"]);
    expect(events[4]).toMatchObject({ rule: "fault-frequency" });
  });

  it("reports per-item errors; all-or-nothing writes nothing, per-item writes the valid ones", async () => {
    const good = linkDown("sp1-node01", 0, 20_000, 20_005);
    const batch = [good, { ...good, target: { server: "nowhere", die: 0 } }, { cluster: "atlas-a3-demo", kind: "made-up" }, { ...good, beganAt: "yesterday" }];
    const all = await send(batch, "all");
    expect(all.status).toBe(422);
    expect(all.body.error.code).toBe("invalid_events");
    expect(all.body.error.details.items.map((i: { index: number; error: { code: string } }) => [i.index, i.error.code])).toEqual([
      [1, "unknown_target"],
      [2, "invalid_event"],
      [3, "invalid_event"],
    ]);
    // Each item error also names a reason and params, which the console renders in the reader's language.
    expect(all.body.error.details.items.map((i: { error: { reason: string; params: object; path: string; message: string } }) => [i.error.reason, i.error.params, i.error.path])).toEqual([
      ["unknown_server", { server: "nowhere" }, "target.server"],
      ["invalid_value", { path: "kind", options: expect.stringContaining("roce-link-down") }, "kind"],
      ["invalid_union", { path: "beganAt" }, "beganAt"],
    ]);
    expect(all.body.error.details.items[0].error.message).toBe("server nowhere is not in this cluster");
    expect((await timeline(`from=${at(19_000)}&to=${at(21_000)}&target=sp1-node01/`)).events).toHaveLength(0);
    const item = await send(batch, "item");
    expect(item.status).toBe(200);
    expect(item.body.counts).toEqual({ created: 1, closed: 0, unchanged: 0, invalid: 3 });
    expect((await timeline(`from=${at(19_000)}&to=${at(21_000)}&target=sp1-node01/`)).events).toHaveLength(1);
  });

  it("names the reason of refusals found after validation: unknown die, future time, an end without its begin", async () => {
    const result = await send(
      [
        linkDown("sp1-node01", 42, 21_000, 21_005),
        { ...linkDown("sp1-node01", 1, 0, null), beganAt: new Date(Date.now() + 3 * 86_400_000).toISOString() },
        { cluster: "atlas-a3-demo", kind: "roce-link-up", code: "81078603", target: { server: "sp1-node01", die: 2 }, endedAt: at(21_500) },
        { ...linkDown("sp1-node01", 1, 21_000, null), endedAt: at(20_000) },
      ],
      "item",
    );
    expect(result.body.items.map((i: { error?: { code: string; reason: string; params: object } }) => i.error && [i.error.code, i.error.reason, i.error.params])).toEqual([
      ["unknown_target", "unknown_die", { server: "sp1-node01", die: 42 }],
      ["future_time", "future_time", {}],
      ["no_open_event", "no_open_event", {}],
      ["invalid_event", "ended_before_began", { path: "endedAt" }],
    ]);
  });

  it("refuses begins from before the retention period instead of reviving them, item by item; ends are taken", async () => {
    const day = 86_400_000;
    const cutoff = new Date(Date.now() - 400 * day);
    const old = (offsetMs: number, ended: boolean) => ({
      ...linkDown("sp1-node01", 3, 0, null),
      beganAt: new Date(cutoff.getTime() - offsetMs).toISOString(),
      ...(ended ? { endedAt: new Date(cutoff.getTime() - offsetMs + 60_000).toISOString() } : {}),
    });
    const recentBegin = { ...linkDown("sp1-node01", 3, 0, null), beganAt: new Date(cutoff.getTime() + day).toISOString(), endedAt: new Date(cutoff.getTime() + day + 5_000).toISOString() };
    const batch = [old(2 * day, true), old(3 * day, false), recentBegin];
    const all = await send(batch, "all");
    expect(all.status).toBe(422);
    const refusals = all.body.error.details.items.map((i: { index: number; error: { code: string; path: string; params: { days: number; cutoff: string }; message: string } }) => [i.index, i.error.code, i.error.path, i.error.params.days]);
    expect(refusals).toEqual([
      [0, "past_retention", "endedAt", 400],
      [1, "past_retention", "beganAt", 400],
    ]);
    expect(all.body.error.details.items[0].error.message).toMatch(/^the event is from before this cluster's retention period \(400 days, so before 20\d\d-/);
    const item = await send(batch, "item");
    expect(item.body.counts).toEqual({ created: 1, closed: 0, unchanged: 0, invalid: 2 });
    // An end older than the retention still closes what is stored (here nothing: it says so, it is not refused for age).
    const end = await send([{ cluster: "atlas-a3-demo", kind: "roce-link-up", code: "81078603", target: { server: "sp1-node01", die: 3 }, endedAt: cutoff.getTime() - 9 * day }], "item");
    expect(end.body.items[0].error.reason).toBe("no_open_event");
  });

  it("takes HCCL errors with their phase, and job reschedules", async () => {
    const result = await send([
      { cluster: "atlas-a3-demo", kind: "hccl-error", code: "EI0002", phase: "execution", source: "hccl-log", target: { server: "sp0-node03", die: 4 }, beganAt: at(30_000), endedAt: at(30_001), job: "llama-70b", rank: 52 },
      { cluster: "atlas-a3-demo", kind: "job-rescheduled", phase: "pod", source: "scheduler", beganAt: at(30_100), endedAt: at(30_160), job: "llama-70b" },
    ]);
    expect(result.body.counts.created).toBe(2);
    const { events } = await timeline(`from=${at(29_000)}&to=${at(31_000)}&kind=hccl-error,job-rescheduled`);
    expect(events.map((e) => [e.kind, e.code, e.phase, e.targetKind])).toEqual([
      ["hccl-error", "EI0002", "execution", "die"],
      ["job-rescheduled", null, "pod", "cluster"],
    ]);
  });

  it("refuses more than 10,000 events and bodies that are not arrays", async () => {
    const many = Array.from({ length: 10_001 }, () => ({}));
    expect((await send(many)).status).toBe(400);
    const response = await postFaultEvents(jsonRequest("/api/v1/fault-events", "POST", { events: [] }, auth()));
    expect(response.status).toBe(400);
  });
});

describe("the demo seed's simulated day", () => {
  it("is taken in once, through the ingestion path", async () => {
    const { seedDemoFaults } = await import("@/db/queries/faults");
    const { simulateDay } = await import("@/lib/faults/simulate");
    const handle = testDatabase();
    // The test cluster is smaller than the demo: keep the events of its servers.
    const now = Date.parse("2026-11-22T00:00:00Z");
    const small = simulateDay({ end: now, serversPerPod: 4 });
    expect(small.length).toBeGreaterThan(80);
    const { ingestFaultEvents } = await import("@/db/queries/faults");
    const result = await ingestFaultEvents(handle, small, { atomic: "all", actor: systemActor, now });
    expect(result.counts.invalid).toBe(0);
    expect(await seedDemoFaults(handle, now)).toBe(0);
    const { events } = await timeline(`from=${now - 86_400_000}&to=${now}`);
    // The die whose link drops five times (a random flap may land on it too on so small a cluster).
    const separated = events.filter((e) => e.level === "ManuallySeparateNPU");
    expect(separated.length).toBeGreaterThanOrEqual(1);
    expect(new Set(separated.map((e) => `${e.serverId}/${e.deviceId}`))).toEqual(new Set(["sp1-node01/10"]));
    expect(events.filter((e) => e.endedAt === null && String(e.id).startsWith("simulator:day-"))).toHaveLength(1);
  });
});

describe("audit", () => {
  const entries = async () =>
    (
      await testDatabase().pool.query<{ actor_type: string; actor_name: string | null; target_type: string | null; target_id: string | null; details: Loose }>(
        "select actor_type, actor_name, target_type, target_id, details from audit_log where action = 'fault_events.ingest' order by id",
      )
    ).rows;

  it("records a batch that wrote something once, with its actor, and not a re-send", async () => {
    const before = (await entries()).length;
    const batch = [linkDown("sp1-node02", 3, 80_000, null), linkDown("sp1-node02", 4, 80_000, 80_002)];
    expect((await send(batch)).status).toBe(200);
    expect((await send(batch)).body.changed).toBe(false);
    const written = (await entries()).slice(before);
    expect(written).toEqual([
      { actor_type: "token", actor_name: "faults editor", target_type: "cluster", target_id: "atlas-a3-demo", details: { items: 2, changed: 2, clusters: ["atlas-a3-demo"] } },
    ]);
  });
});

describe("dry run (the CSV import's preview)", () => {
  it("says what would be created, left alone or refused, and writes nothing", async () => {
    const fresh = linkDown("sp1-node03", 12, 70_000, 70_004);
    const known = linkDown("sp0-node00", 0, 0, 10);
    const response = await postFaultEvents(jsonRequest("/api/v1/fault-events?atomic=item&dryRun=1", "POST", [fresh, known, { ...fresh, kind: "nope" }], auth()));
    const body = (await response.json()) as { changed: boolean; items: { status: string }[] };
    expect(body.changed).toBe(false);
    expect(body.items.map((i) => i.status)).toEqual(["created", "unchanged", "invalid"]);
    expect((await timeline(`from=${at(69_000)}&to=${at(71_000)}&target=sp1-node03/12`)).events).toHaveLength(0);
  });
});
