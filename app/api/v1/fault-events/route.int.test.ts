import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { demoA2Cluster, demoA3Cluster } from "@/lib/inventory/demo";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest, origin } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { postedEvents } from "@/test/fault-events";

// Response bodies are read loosely: the assertions say what they must hold.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

withAppDatabase();

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
let post: Handler;
let get: Handler;
let deviceInfo: Handler;
let stats: Handler;
let health: Handler;
let settingsGet: Handler;
let settingsPut: Handler;
const tokens = { viewer: "", editor: "" };
const none = { params: Promise.resolve({}) };
let sample = "";

beforeAll(async () => {
  ({ POST: post, GET: get } = await import("./route"));
  ({ POST: deviceInfo } = await import("./device-info/route"));
  ({ GET: stats } = await import("./stats/route"));
  ({ GET: health } = await import("./health/route"));
  ({ GET: settingsGet, PUT: settingsPut } = await import("./settings/route"));
  const { db } = testDatabase();
  await seedDemo(db, [demoA3Cluster(2, 4)]);
  tokens.viewer = (await createApiToken(db, { name: "faults viewer", role: "viewer" }, systemActor)).token;
  tokens.editor = (await createApiToken(db, { name: "faults editor", role: "editor" }, systemActor)).token;
  sample = await readFile("lib/faults/fixtures/device-info-a3-sample.json", "utf8");
});

const auth = (role: keyof typeof tokens = "editor") => ({ authorization: `Bearer ${tokens[role]}` });
const t0 = Date.parse("2026-11-20T08:00:00Z");
const { at, linkDown } = postedEvents(t0);

async function send(events: unknown[], atomic: "all" | "item" = "all", role: keyof typeof tokens = "editor") {
  const response = await post(jsonRequest(`/api/v1/fault-events?atomic=${atomic}`, "POST", events, auth(role)), none);
  return { status: response.status, body: (await response.json()) as Record<string, Loose> };
}

async function timeline(query: string) {
  const response = await get(new Request(`${origin}/api/v1/fault-events?cluster=atlas-a3-demo&${query}`, { headers: auth("viewer") }), none);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { events: Loose[]; total: number; density: { buckets: Loose[] } };
}

async function postDeviceInfo(body: unknown, query = "cluster=atlas-a3-demo&node=sp0-node01") {
  const response = await deviceInfo(
    new Request(`${origin}/api/v1/fault-events/device-info?${query}`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    none,
  );
  return { status: response.status, body: (await response.json()) as Record<string, Loose> };
}


describe("POST /api/v1/fault-events", () => {
  it("needs a token or session with the editor role", async () => {
    const anonymous = await post(jsonRequest("/api/v1/fault-events", "POST", []), none);
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
    const response = await post(jsonRequest("/api/v1/fault-events", "POST", { events: [] }, auth()), none);
    expect(response.status).toBe(400);
  });
});

describe("POST /api/v1/fault-events/device-info", () => {
  const faultList = (faults: object[]) => JSON.stringify(faults);
  const snapshot = (updateTime: number, faults: object[]) => ({
    kind: "ConfigMap",
    metadata: { name: "mindx-dl-deviceinfo-sp0-node01", namespace: "kube-system" },
    data: { DeviceInfoCfg: JSON.stringify({ DeviceInfo: { DeviceList: { "huawei.com/Ascend910-Fault": faultList(faults) }, UpdateTime: updateTime }, SuperPodID: 0, ServerIndex: 1 }) },
  });
  const chip = { fault_type: "CardUnhealthy", npu_name: "Ascend910-6", fault_handling: "SeparateNPU", fault_code: "80E18402", fault_time_and_level_map: { "80E18402": { fault_time: 1_790_000_000_000, fault_level: "SeparateNPU" } } };

  it("takes MindCluster's sample as posted, mapping Ascend910-n to die n", async () => {
    const result = await postDeviceInfo(sample);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({ server: "sp0-node01", checkCode: "valid", changed: true });
    expect(result.body.opened.map((o: { npuName: string; code: string }) => `${o.npuName}:${o.code}`).sort()).toEqual(
      ["Ascend910-0:81078603", "Ascend910-4:80E18401", "Ascend910-4:80E18402", "Ascend910-4:A4028801", "Ascend910-4:A8028801"].sort(),
    );
    const again = await postDeviceInfo(sample);
    expect(again.body).toMatchObject({ changed: false, opened: [], closed: [], unchanged: 5 });
  });

  it("opens and closes events as faults appear and clear; older snapshots change nothing", async () => {
    const node = "cluster=atlas-a3-demo";
    const opened = await postDeviceInfo(snapshot(1_790_000_010, [chip]), node);
    expect(opened.body).toMatchObject({ server: "sp0-node01", changed: true });
    expect(opened.body.opened).toHaveLength(1);
    const cleared = await postDeviceInfo(snapshot(1_790_000_100, []), node);
    expect(cleared.body.closed).toEqual([opened.body.opened[0].id]);
    const stale = await postDeviceInfo(snapshot(1_790_000_050, [chip]), node);
    expect(stale.body).toMatchObject({ stale: true, changed: false });
    const { events } = await timeline(`from=${1_789_999_000_000}&to=${1_790_001_000_000}&target=sp0-node01/6`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ source: "device-info-cm", code: "80E18402", level: "SeparateNPU", endedAt: 1_790_000_100_000 });
  });

  it("finds the server by SuperPodID and ServerIndex when the node name is unknown", async () => {
    const cm = snapshot(1_790_000_200, []);
    cm.metadata.name = "mindx-dl-deviceinfo-k8s-worker-17";
    cm.data.DeviceInfoCfg = cm.data.DeviceInfoCfg.replace('"ServerIndex":1', '"ServerIndex":2');
    const result = await postDeviceInfo(cm, "cluster=atlas-a3-demo");
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.server).toBe("sp0-node02");
  });

  it.each([
    ["not JSON", "{oops", /not valid JSON/, { reason: "not_json", path: "body" }],
    ["no DeviceInfoCfg", { kind: "ConfigMap", metadata: { name: "x" }, data: {} }, /no DeviceInfoCfg/, { reason: "missing_key", params: { key: "DeviceInfoCfg" } }],
    [
      "a Fault list that is not an array",
      { DeviceInfo: { DeviceList: { "huawei.com/Ascend910-Fault": "{}" }, UpdateTime: 1 } },
      /JSON array/,
      { reason: "not_encoded_array", path: 'body.DeviceInfo.DeviceList["huawei.com/Ascend910-Fault"]' },
    ],
    [
      "a switch fault that is not a JSON string",
      { kind: "ConfigMap", metadata: { name: "x" }, data: { DeviceInfoCfg: JSON.stringify({ DeviceInfo: { DeviceList: {}, UpdateTime: 1 } }), SwitchInfoCfg: JSON.stringify({ FaultCode: [{}] }) } },
      /must be a string/,
      { reason: "not_string", path: "data.SwitchInfoCfg.FaultCode[0]" },
    ],
  ])("rejects %s with 422, a reason and params, and changes nothing", async (_, body, message, details) => {
    const result = await postDeviceInfo(body);
    expect(result.status).toBe(422);
    expect(result.body.error.code).toBe("invalid_device_info");
    expect(result.body.error.message).toMatch(message);
    expect(result.body.error.details).toMatchObject(details);
  });

  it("says which node is unknown", async () => {
    const result = await postDeviceInfo(sample, "cluster=atlas-a3-demo&node=nope");
    expect(result).toMatchObject({ status: 422, body: { error: { code: "unknown_node", details: { reason: "unknown_node", params: { node: "nope" } } } } });
    const cluster = await postDeviceInfo(sample, "cluster=nope&node=sp0-node01");
    expect(cluster).toMatchObject({ status: 404, body: { error: { code: "unknown_cluster", details: { reason: "unknown_cluster", params: { cluster: "nope" } } } } });
  });

  describe("SwitchInfoCfg (灵衢 switch faults)", () => {
    type SwitchConfigMap = { metadata: { name: string }; data: Record<string, string> };
    let configMap: SwitchConfigMap;
    beforeAll(async () => {
      configMap = JSON.parse(await readFile("lib/faults/fixtures/device-info-a3-switch-configmap.json", "utf8")) as SwitchConfigMap;
      configMap.metadata.name = "mindx-dl-deviceinfo-sp1-node03";
    });
    const withFaults = (cm: SwitchConfigMap, keep: (faults: string[]) => string[]) => {
      const switchInfo = JSON.parse(cm.data.SwitchInfoCfg!) as { FaultCode: string[] };
      return { ...cm, data: { ...cm.data, SwitchInfoCfg: JSON.stringify({ ...switchInfo, FaultCode: keep(switchInfo.FaultCode) }) } };
    };
    const switchEvents = async () =>
      (await timeline(`from=${1_744_180_000_000}&to=${1_744_190_000_000}&kind=bus-device-fault&target=sp1-node03`)).events.filter((e) => e.serverId === "sp1-node03");

    it("opens an event on the switch chip each fault names, with its plane, port, hex code and level as given", async () => {
      const result = await postDeviceInfo(configMap, "cluster=atlas-a3-demo");
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(result.body.server).toBe("sp1-node03");
      const switchOpened = result.body.opened.filter((o: { switchPort: unknown }) => o.switchPort !== null);
      expect(
        switchOpened.map((o: { code: string; level: string; switchPort: { chipId: number; portId: number; plane: string } }) => [
          o.code,
          o.level,
          o.switchPort.chipId,
          o.switchPort.portId,
          o.switchPort.plane,
        ]),
      ).toEqual([
        ["00F1FF09", "SeparateNPU", 0, 5, "pod:1/ub:0"],
        ["08520003", "NotHandleFault", 1, 12, "pod:1/ub:1"],
      ]);
      // The server's filter (target=sp1-node03) still finds them: its switch chips are in its scope.
      const events = await switchEvents();
      expect(events.map((e) => [e.targetKind, e.targetKey, e.kind, e.code, e.reportedLevel, e.beganAt, e.endedAt])).toEqual([
        ["switch", "switch:sp1-node03/0", "bus-device-fault", "00F1FF09", "SeparateNPU", 1_744_182_100_123, null],
        ["switch", "switch:sp1-node03/1", "bus-device-fault", "08520003", "NotHandleFault", 1_744_182_110_456, null],
      ]);
      // Port 12 of chip 1 faces NPU 6 (PeerPortDevice 1, PeerPortId 6): one NPU's link, not the plane.
      const npuPort = (await testDatabase().pool.query<{ raw: Record<string, unknown> }>("select raw from fault_events where id = $1", [events[1].id])).rows[0]!.raw;
      expect(npuPort.fabric).toMatchObject({ plane: "pod:1/ub:1", port: 12, reach: { scope: "npu-port", npuIndex: 6, podDegraded: false } });
      // The overlay names each switch fault's chip; both are ports facing one CPU / one NPU of the server, so they
      // colour that server's attachment (chip and server), not the bus plane (db/queries/faults/health.ts).
      const overlay = (await (await health(new Request(`${origin}/api/v1/fault-events/health?cluster=atlas-a3-demo`, { headers: auth("viewer") }), none)).json()) as {
        targets: { serverId: string; planeKey: string | null; switchKey: string | null; tone: string }[];
      };
      expect(overlay.targets.filter((t) => t.switchKey !== null).map((t) => [t.serverId, t.switchKey, t.planeKey, t.tone])).toEqual([
        ["sp1-node03", "server:sp1-node03/chip:0", null, "faulty"],
        ["sp1-node03", "server:sp1-node03/chip:1", null, "degraded"],
      ]);
      const again = await postDeviceInfo(configMap, "cluster=atlas-a3-demo");
      expect(again.body).toMatchObject({ changed: false, opened: [], closed: [] });
    });

    it("keeps switch events open when a snapshot lacks SwitchInfoCfg, and closes the one that cleared", async () => {
      const deviceOnly = { ...configMap, data: { DeviceInfoCfg: configMap.data.DeviceInfoCfg! } };
      expect((await postDeviceInfo(deviceOnly, "cluster=atlas-a3-demo")).body.closed).toEqual([]);
      const [first] = await switchEvents();
      const cleared = await postDeviceInfo(withFaults(configMap, (faults) => faults.slice(1)), "cluster=atlas-a3-demo");
      expect(cleared.body.closed).toEqual([first.id]);
      const events = await switchEvents();
      expect(events.map((e) => [e.code, e.endedAt])).toEqual([
        ["00F1FF09", 1_744_182_144_000],
        ["08520003", null],
      ]);
      const raw = (await testDatabase().pool.query<{ raw: Record<string, unknown> }>("select raw from fault_events where id = $1", [first.id])).rows[0]!.raw;
      expect(raw).toMatchObject({
        AssembledFaultCode: "[0x00f1ff09,155913,cpu,na]",
        EventSerialNum: 311,
        fault_level: "Separate",
        switch_fault_key: "[0x00f1ff09,155913,cpu,na]_0_5",
        fabric: { chip: "server:sp1-node03/chip:0", plane: "pod:1/ub:0", port: 5, portOutOfRange: false, reach: { scope: "cpu-port", podDegraded: false } },
      });
    });

    it("keeps a fault of a chip the fabric does not have on the server, unmapped, with a warning", async () => {
      const unknownChip = JSON.stringify({ EventType: 5, AssembledFaultCode: "[0x08520003,,L2,na]", SwitchChipId: 9, SwitchPortId: 3, Assertion: 1, AlarmRaisedTime: 1_744_182_120 });
      const result = await postDeviceInfo(withFaults(configMap, (faults) => [...faults.slice(1), unknownChip]), "cluster=atlas-a3-demo");
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(result.body.opened).toEqual([expect.objectContaining({ code: "08520003", switchPort: expect.objectContaining({ chipId: 9, portId: 3, plane: null }) })]);
      expect(result.body.warnings).toContainEqual(expect.objectContaining({ reason: "switch_chip_unmapped", params: { chip: 9, server: "sp1-node03" } }));
      const unmapped = (await switchEvents()).filter((e) => e.targetKind === "server");
      expect(unmapped.map((e) => [e.targetKey, e.code, e.endedAt])).toEqual([["server:sp1-node03", "08520003", null]]);
      const raw = (await testDatabase().pool.query<{ raw: Record<string, unknown> }>("select raw from fault_events where id = $1", [unmapped[0].id])).rows[0]!.raw;
      expect(raw).toMatchObject({ SwitchChipId: 9, fabric: { unmapped: "unknown-chip" } });
    });

    it("marks the plane degraded for the whole pod on a chip alarm or an uplink (L2) port fault, not on an NPU-facing port", async () => {
      const fault = (chip: number, port: number, code: string) =>
        JSON.stringify({ EventType: 5, AssembledFaultCode: code, PeerPortDevice: 2, PeerPortId: 0, SwitchChipId: chip, SwitchPortId: port, Assertion: 1, AlarmRaisedTime: 1_744_182_130 });
      const other = { ...configMap, metadata: { name: "mindx-dl-deviceinfo-sp1-node02" } };
      const posted = await postDeviceInfo(withFaults(other, () => [fault(2, 0xffff, "[0x00f103b0,155904,na,na]"), fault(4, 40, "[0x08520003,,L2,na]")]), "cluster=atlas-a3-demo");
      expect(posted.status, JSON.stringify(posted.body)).toBe(200);
      const overlay = (await (await health(new Request(`${origin}/api/v1/fault-events/health?cluster=atlas-a3-demo`, { headers: auth("viewer") }), none)).json()) as {
        targets: { serverId: string; planeKey: string | null; switchKey: string | null }[];
      };
      expect(overlay.targets.filter((t) => t.serverId === "sp1-node02" && t.switchKey !== null).map((t) => [t.switchKey, t.planeKey])).toEqual([
        ["server:sp1-node02/chip:2", "pod:1/ub:2"],
        ["server:sp1-node02/chip:4", "pod:1/ub:4"],
      ]);
    });
  });
});

describe("statistics, health and settings", () => {
  it("counts by kind and level, MTTR, availability", async () => {
    const response = await stats(new Request(`${origin}/api/v1/fault-events/stats?cluster=atlas-a3-demo&from=${at(-100)}&to=${at(40_000)}`, { headers: auth("viewer") }), none);
    const body = (await response.json()) as Record<string, Loose>;
    expect(response.status).toBe(200);
    expect(body.byKind.find((k: { kind: string }) => k.kind === "roce-link-down").count).toBeGreaterThan(5);
    expect(body.mttrMs).toBeGreaterThan(0);
    expect(body.availability.map((a: { superPodId: string }) => a.superPodId)).toEqual(["0", "1"]);
    expect(body.availability[0].availability).toBeLessThanOrEqual(1);
  });

  it("lists open faults per die for the topology overlay", async () => {
    const response = await health(new Request(`${origin}/api/v1/fault-events/health?cluster=atlas-a3-demo`, { headers: auth("viewer") }), none);
    const body = (await response.json()) as { targets: { serverId: string; deviceId: number; tone: string }[] };
    expect(body.targets).toContainEqual(expect.objectContaining({ serverId: "sp0-node00", deviceId: 2, tone: "degraded" }));
  });

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

describe("GET /api/v1/events (server-sent events)", () => {
  it("announces a new event of the cluster within 2 seconds, through LISTEN/NOTIFY", async () => {
    const { GET: events } = await import("../events/route");
    const abort = new AbortController();
    const response = await events(new Request(`${origin}/api/v1/events?cluster=atlas-a3-demo`, { headers: auth("viewer"), signal: abort.signal }), none);
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    expect(text).toMatch(/retry: 3000/);
    const started = Date.now();
    await send([linkDown("sp1-node03", 11, 60_000, null)]);
    while (!text.includes("event: faults")) {
      const chunk = await Promise.race([reader.read(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no event within 2 s")), 2000))]);
      text += decoder.decode(chunk.value);
    }
    expect(Date.now() - started).toBeLessThan(2000);
    expect(text).toMatch(/"slug":"atlas-a3-demo"/);
    abort.abort();
    await reader.cancel();
  });
});

describe("dry run (the CSV import's preview)", () => {
  it("says what would be created, left alone or refused, and writes nothing", async () => {
    const fresh = linkDown("sp1-node03", 12, 70_000, 70_004);
    const known = linkDown("sp0-node00", 0, 0, 10);
    const response = await post(jsonRequest("/api/v1/fault-events?atomic=item&dryRun=1", "POST", [fresh, known, { ...fresh, kind: "nope" }], auth()), none);
    const body = (await response.json()) as { changed: boolean; items: { status: string }[] };
    expect(body.changed).toBe(false);
    expect(body.items.map((i) => i.status)).toEqual(["created", "unchanged", "invalid"]);
    expect((await timeline(`from=${at(69_000)}&to=${at(71_000)}&target=sp1-node03/12`)).events).toHaveLength(0);
  });
});
