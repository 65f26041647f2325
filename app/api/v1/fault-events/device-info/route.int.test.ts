import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { withAppDatabase } from "@/test/app-database";
import { origin } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { auth, none, timeline, withFaultRoutes, type Handler, type Loose } from "@/test/fault-routes";

withAppDatabase();
withFaultRoutes();

let deviceInfo: Handler;
let health: Handler;
let sample = "";

beforeAll(async () => {
  ({ POST: deviceInfo } = await import("./route"));
  ({ GET: health } = await import("../health/route"));
  sample = await readFile("lib/faults/fixtures/device-info-a3-sample.json", "utf8");
});

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
