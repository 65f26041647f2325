import { beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "@/db/seed";
import { demoA2Cluster } from "@/lib/inventory/demo";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest, origin } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { at, auth, linkDown, none, send, timeline, withFaultRoutes, type Handler, type Loose } from "@/test/fault-routes";

withAppDatabase();
withFaultRoutes();

let settingsGet: Handler;
let settingsPut: Handler;

beforeAll(async () => {
  ({ GET: settingsGet, PUT: settingsPut } = await import("./route"));
});

describe("settings", () => {
  it("keeps per-cluster settings within MindCluster's ranges", async () => {
    const current = (await (await settingsGet(new Request(`${origin}/api/v1/fault-events/settings?cluster=atlas-a3-demo`, { headers: auth("viewer") }), none)).json()) as Record<string, Loose>;
    expect(current).toMatchObject({ customised: false, escalation: { duration: [{ faultTimeoutSeconds: 20, recoverTimeoutSeconds: 60, handling: "PreSeparateNPU" }] } });
    const put = (body: unknown) => settingsPut(jsonRequest("/api/v1/fault-events/settings?cluster=atlas-a3-demo", "PUT", body, auth()), none);
    const bad = { ...current, escalation: { ...current.escalation, duration: [{ ...current.escalation.duration[0], faultTimeoutSeconds: 601 }] } };
    expect((await put(bad)).status).toBe(400);
    const good = { escalation: { ...current.escalation, duration: [{ ...current.escalation.duration[0], faultTimeoutSeconds: 5 }] }, retentionDays: 90 };
    expect((await put(good)).status).toBe(200);
    await send([linkDown("sp1-node02", 0, 50_000, 50_006)]);
    const { events } = await timeline(`from=${at(49_000)}&to=${at(51_000)}&target=sp1-node02/0`);
    expect(events[0]).toMatchObject({ level: "PreSeparateNPU", rule: "fault-duration" });
  });
});

describe("fault settings: no lost update", () => {
  beforeAll(async () => {
    await seedDemo(testDatabase().db, [demoA2Cluster(1)]);
  });
  const url = (cluster: string) => `/api/v1/fault-events/settings?cluster=${cluster}`;
  const read = async (cluster: string) => {
    const response = await settingsGet(new Request(`${origin}${url(cluster)}`, { headers: auth("viewer") }), none);
    return { etag: response.headers.get("etag"), body: (await response.json()) as Record<string, Loose> };
  };
  const put = async (cluster: string, body: unknown, version?: string) => {
    const response = await settingsPut(jsonRequest(url(cluster), "PUT", body, { ...auth(), ...(version === undefined ? {} : { "if-match": `"${version}"` }) }), none);
    return { status: response.status, etag: response.headers.get("etag"), body: (await response.json()) as Record<string, Loose> };
  };
  const withTimeout = (settings: Record<string, Loose>, seconds: number) => ({
    escalation: { ...settings.escalation, duration: [{ ...settings.escalation.duration[0], faultTimeoutSeconds: seconds }] },
    retentionDays: settings.retentionDays,
  });
  const audits = async (cluster: string) =>
    (await testDatabase().pool.query<{ after: Loose }>("select after from audit_log where action = 'fault_settings.update' and target_id = $1 order by id", [cluster])).rows;

  it("refuses a save that did not start from the current version, and keeps the other one", async () => {
    const start = await read("atlas-a2-demo");
    expect(start.body).toMatchObject({ customised: false, version: "0", updatedAt: null });
    expect(start.etag).toBe('"0"');
    const mine = await put("atlas-a2-demo", withTimeout(start.body, 25), "0");
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body).toMatchObject({ customised: true, escalation: { duration: [{ faultTimeoutSeconds: 25 }] } });
    expect(mine.etag).toBe(`"${mine.body.version}"`);
    // A second editor who also loaded version 0 (a first save racing another) is refused and told what is there.
    const theirs = await put("atlas-a2-demo", withTimeout(start.body, 30), "0");
    expect(theirs).toMatchObject({ status: 409, body: { error: { code: "settings_conflict", details: { current: { version: mine.body.version } } } } });
    // The same for a later save, through the row lock.
    const next = await put("atlas-a2-demo", withTimeout(mine.body, 40), mine.body.version);
    expect(next.status).toBe(200);
    expect(next.body.version).not.toBe(mine.body.version);
    expect((await put("atlas-a2-demo", withTimeout(mine.body, 50), mine.body.version)).status).toBe(409);
    expect((await read("atlas-a2-demo")).body.escalation.duration[0].faultTimeoutSeconds).toBe(40);
    expect((await audits("atlas-a2-demo")).map((row) => row.after?.escalation?.duration?.[0]?.faultTimeoutSeconds)).toEqual([25, 40]);
  });

  it("says what a malformed If-Match is", async () => {
    const { body } = await read("atlas-a2-demo");
    expect(await put("atlas-a2-demo", withTimeout(body, 20), "yesterday")).toMatchObject({ status: 400, body: { error: { code: "invalid_if_match" } } });
  });
});
