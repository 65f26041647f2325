import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { computeCheckCode, DeviceInfoError, deviceIdOfName, parseDeviceInfo, switchFaultCode } from "./device-info";
import { chipFaultKey, diffSnapshot, switchFaultKey } from "./snapshot";

const sample = readFileSync(path.join(__dirname, "fixtures/device-info-a3-sample.json"), "utf8");
const switchConfigMap = JSON.parse(readFileSync(path.join(__dirname, "fixtures/device-info-a3-switch-configmap.json"), "utf8")) as {
  metadata: { name: string };
  data: Record<string, string>;
};
const sampleObject = JSON.parse(sample) as { DeviceInfo: { DeviceList: Record<string, string>; UpdateTime: number }; CheckCode: string };

function configMap(cfg: unknown, name = "mindx-dl-deviceinfo-sp0-node03") {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "kube-system" }, data: { DeviceInfoCfg: typeof cfg === "string" ? cfg : JSON.stringify(cfg) } };
}

describe("device-info ConfigMap", () => {
  it("parses MindCluster's verbatim A3 sample and verifies its CheckCode", () => {
    const snap = parseDeviceInfo(sample);
    expect(snap.checkCodeStatus).toBe("valid");
    expect(snap.updateTime).toBe(1744182144);
    expect(snap.superPodId).toBe(-2);
    expect(snap.resource).toBe("huawei.com/Ascend910");
    expect(snap.unhealthy).toEqual(["Ascend910-4"]);
    expect(snap.networkUnhealthy).toEqual(["Ascend910-0"]);
    expect(snap.recovering).toEqual([]);
    expect(snap.faults.map((f) => [f.npuName, f.deviceId, f.code, f.level, f.faultTime])).toEqual([
      ["Ascend910-0", 0, "81078603", "PreSeparateNPU", 1744168468259],
      ["Ascend910-4", 4, "A8028801", "SeparateNPU", 1744167455784],
      ["Ascend910-4", 4, "A4028801", "NotHandleFault", 1744167455784],
      ["Ascend910-4", 4, "80E18402", "SeparateNPU", 1744167455784],
      ["Ascend910-4", 4, "80E18401", "NotHandleFault", 1744167455784],
    ]);
    expect(snap.faults[0]!.kind).toBe("roce-link-down");
  });

  it("takes the whole ConfigMap, its data, or the DeviceInfoCfg string alike", () => {
    const whole = parseDeviceInfo(configMap(sample));
    expect(whole.nodeName).toBe("sp0-node03");
    expect(parseDeviceInfo({ DeviceInfoCfg: sample }).faults).toHaveLength(5);
    expect(parseDeviceInfo(JSON.stringify(configMap(sampleObject))).faults).toHaveLength(5);
  });

  it("flags a CheckCode that does not match, without rejecting", () => {
    const edited = { ...sampleObject, DeviceInfo: { ...sampleObject.DeviceInfo, UpdateTime: 1744182145 } };
    const snap = parseDeviceInfo(edited);
    expect(snap.checkCodeStatus).toBe("mismatch");
    expect(snap.warnings[0]).toMatchObject({ reason: "check_code_mismatch", message: expect.stringMatching(/CheckCode/) });
    expect(computeCheckCode(edited.DeviceInfo.DeviceList, edited.DeviceInfo.UpdateTime)).toHaveLength(64);
  });

  it("keeps unknown keys, fields and codes", () => {
    const faults = [{ fault_type: "CardUnhealthy", npu_name: "Ascend910-3", fault_handling: "RestartNPU", fault_code: "0xdeadbeef", extra_field: 1, fault_time_and_level_map: { DEADBEEF: { fault_time: 1744168468000, fault_level: "MadeUpLevel" } } }];
    const snap = parseDeviceInfo({
      DeviceInfo: { DeviceList: { "huawei.com/Ascend910-Fault": JSON.stringify(faults), "vendor.example/thing": "x" }, UpdateTime: 1744168469 },
      SuperPodID: 0,
      ServerIndex: 3,
      RackID: 2,
      Future: true,
    });
    expect(snap.otherKeys).toEqual({ "vendor.example/thing": "x" });
    expect(snap.faults[0]).toMatchObject({ code: "DEADBEEF", level: null, codeLevel: "MadeUpLevel", faultHandling: "RestartNPU" });
    expect(snap.faults[0]!.raw.extra_field).toBe(1);
    expect(snap.raw.Future).toBe(true);
    expect(snap.rackId).toBe(2);
    expect(snap.checkCodeStatus).toBe("absent");
  });

  it("falls back to UpdateTime when a code has no time", () => {
    const faults = [{ fault_type: "CardUnhealthy", npu_name: "Ascend910-1", fault_handling: "SeparateNPU", fault_code: "80E18402" }];
    const snap = parseDeviceInfo({ DeviceInfo: { DeviceList: { "huawei.com/Ascend910-Fault": JSON.stringify(faults) }, UpdateTime: 1700000000 } });
    expect(snap.faults[0]).toMatchObject({ faultTime: 1700000000000, level: "SeparateNPU" });
  });

  it.each([
    ["not JSON", "{nope", /body is not valid JSON/],
    ["an array", [], /expected a ConfigMap/],
    ["a ConfigMap without data", { kind: "ConfigMap", metadata: { name: "x" } }, /no data object/],
    ["a ConfigMap without DeviceInfoCfg", configMap({}) && { kind: "ConfigMap", data: { Other: "1" } }, /no DeviceInfoCfg key/],
    ["DeviceInfoCfg that is not JSON", configMap("{broken"), /DeviceInfoCfg is not valid JSON/],
    ["no DeviceInfo", { CheckCode: "x" }, /DeviceInfo is missing/],
    ["DeviceList not an object", { DeviceInfo: { DeviceList: "a", UpdateTime: 1 } }, /DeviceList is missing or not an object/],
    ["a non-string DeviceList value", { DeviceInfo: { DeviceList: { "huawei.com/Ascend910": 3 }, UpdateTime: 1 } }, /must be a string/],
    ["no UpdateTime", { DeviceInfo: { DeviceList: {} } }, /UpdateTime must be a Unix time/],
    ["a Fault value that is not JSON", { DeviceInfo: { DeviceList: { "huawei.com/Ascend910-Fault": "[{" }, UpdateTime: 1 } }, /Ascend910-Fault.*not valid JSON/],
    ["a Fault value that is an object", { DeviceInfo: { DeviceList: { "huawei.com/Ascend910-Fault": "{}" }, UpdateTime: 1 } }, /must be a JSON array/],
    ["a fault without npu_name", { DeviceInfo: { DeviceList: { "huawei.com/Ascend910-Fault": '[{"fault_code":"1"}]' }, UpdateTime: 1 } }, /npu_name/],
    ["a fault with a numeric code", { DeviceInfo: { DeviceList: { "huawei.com/Ascend910-Fault": '[{"npu_name":"Ascend910-0","fault_code":81078603}]' }, UpdateTime: 1 } }, /fault_code must be a string/],
    ["a SuperPodID that is text", { DeviceInfo: { DeviceList: {}, UpdateTime: 1 }, SuperPodID: "0" }, /SuperPodID must be an integer/],
  ])("rejects %s with a clear error", (_, input, message) => {
    expect(() => parseDeviceInfo(input)).toThrow(DeviceInfoError);
    expect(() => parseDeviceInfo(input)).toThrow(message);
  });

  it("says what and where with a reason and params for the console", () => {
    const error = (() => {
      try {
        parseDeviceInfo({ DeviceInfo: { DeviceList: { "huawei.com/Ascend910-Fault": '[{"npu_name":"Ascend910-0","fault_code":81078603}]' }, UpdateTime: 1 } });
      } catch (e) {
        return e as DeviceInfoError;
      }
    })();
    expect(error?.problem).toMatchObject({
      code: "invalid_device_info",
      reason: "bad_fault_code",
      params: { path: 'body.DeviceInfo.DeviceList["huawei.com/Ascend910-Fault"][0].fault_code' },
      path: 'body.DeviceInfo.DeviceList["huawei.com/Ascend910-Fault"][0].fault_code',
    });
  });

  it("reads die numbers from chip names", () => {
    expect(deviceIdOfName("Ascend910-15")).toBe(15);
    expect(deviceIdOfName("npu-3")).toBe(3);
    expect(deviceIdOfName("Ascend910")).toBeNull();
  });
});

describe("snapshot diffing", () => {
  const snapWith = (faults: object[], updateTime: number) =>
    parseDeviceInfo({ DeviceInfo: { DeviceList: { "huawei.com/Ascend910-Fault": JSON.stringify(faults) }, UpdateTime: updateTime } });
  const linkDown = { fault_type: "CardNetworkUnhealthy", npu_name: "Ascend910-2", fault_handling: "NotHandleFault", fault_code: "81078603" };

  it("opens an event for a new fault, leaves it while it stays, and closes it when it clears", () => {
    const first = diffSnapshot([], snapWith([linkDown], 100));
    expect(first.open.map((f) => f.npuName)).toEqual(["Ascend910-2"]);
    const open = [{ id: "x", key: chipFaultKey("Ascend910-2", "81078603") }];
    expect(diffSnapshot(open, snapWith([linkDown], 105))).toEqual({ open: [], openSwitch: [], close: [], unchanged: ["x"] });
    expect(diffSnapshot(open, snapWith([], 130))).toEqual({ open: [], openSwitch: [], close: [{ id: "x", endedAt: 130_000 }], unchanged: [] });
  });

  it("does the same for switch faults, by chip and port, and leaves them alone when SwitchInfoCfg is absent", () => {
    const full = parseDeviceInfo(switchConfigMap);
    const first = diffSnapshot([], full);
    expect(first.openSwitch.map((f) => f.key)).toEqual(["[0x00f1ff09,155913,cpu,na]_0_5", "[0x08520003,155649,npu,na]_1_12"]);
    const open = [
      { id: "s0", key: switchFaultKey("[0x00f1ff09,155913,cpu,na]_0_5") },
      { id: "s1", key: switchFaultKey("[0x08520003,155649,npu,na]_1_12") },
    ];
    const switchInfo = JSON.parse(switchConfigMap.data.SwitchInfoCfg!) as { FaultCode: string[] };
    const oneCleared = { ...switchConfigMap, data: { ...switchConfigMap.data, SwitchInfoCfg: JSON.stringify({ ...switchInfo, FaultCode: switchInfo.FaultCode.slice(0, 1) }) } };
    const diff = diffSnapshot(open, parseDeviceInfo(oneCleared));
    expect(diff.openSwitch).toEqual([]);
    expect(diff.close).toEqual([{ id: "s1", endedAt: 1744182144_000 }]);
    expect(diff.unchanged).toContain("s0");
    const withoutSwitchKey = { ...switchConfigMap, data: { DeviceInfoCfg: switchConfigMap.data.DeviceInfoCfg! } };
    const silent = diffSnapshot(open, parseDeviceInfo(withoutSwitchKey));
    expect(silent.close).toEqual([]);
    expect(silent.unchanged).toEqual(expect.arrayContaining(["s0", "s1"]));
  });
});

describe("SwitchInfoCfg (灵衢 switch faults on A3)", () => {
  const withSwitch = (switchInfo: unknown) => ({ ...switchConfigMap, data: { ...switchConfigMap.data, SwitchInfoCfg: typeof switchInfo === "string" ? switchInfo : JSON.stringify(switchInfo) } });
  const fault = (fields: object) => JSON.stringify({ EventType: 1, AssembledFaultCode: "[0x00f1ff09,155913,cpu,na]", SwitchChipId: 0, SwitchPortId: 1, Severity: 2, Assertion: 1, AlarmRaisedTime: 1744182000, ...fields });

  it("parses the plugin's SwitchInfoCfg next to DeviceInfoCfg: codes as hex, levels as given, times in ms", () => {
    const snap = parseDeviceInfo(switchConfigMap);
    expect(snap.faults).toHaveLength(5);
    expect(snap.switchInfo).toMatchObject({ updateTime: 1744182144, faultLevel: "Separate", nodeStatus: "UnHealthy" });
    expect(snap.switchInfo!.faults.map((f) => [f.code, f.chipId, f.portId, f.levelText, f.level, f.faultTime])).toEqual([
      ["00F1FF09", 0, 5, "Separate", "SeparateNPU", 1744182100123],
      ["08520003", 1, 12, "NotHandle", "NotHandleFault", 1744182110456],
    ]);
    // Fields the console does not interpret stay in the raw payload.
    expect(snap.switchInfo!.faults[0]!.raw).toMatchObject({ EventSerialNum: 311, PeerPortDevice: 0, Severity: 2, SubType: 0 });
    expect(snap.warnings).toEqual([]);
  });

  it("reads codes the way SwitchFaultCode.json writes them", () => {
    expect(switchFaultCode("[0x00f1ff09,155913,cpu,na]")).toBe("00F1FF09");
    expect(switchFaultCode("0000002d")).toBe("0000002D");
    expect(switchFaultCode("[0x08520003,155649,npu,na]")).toBe("08520003");
    expect(switchFaultCode("not-hex")).toBe("not-hex");
  });

  it("falls back to AlarmRaisedTime (seconds) and the node's FaultLevel, and keeps an unknown level as raw with a warning", () => {
    const snap = parseDeviceInfo(withSwitch({ FaultCode: [fault({ SwitchPortId: 7 })], FaultLevel: "MadeUp", UpdateTime: 1744182144, NodeStatus: "UnHealthy" }));
    expect(snap.switchInfo!.faults[0]).toMatchObject({ faultTime: 1744182000_000, levelText: "MadeUp", level: null, key: "[0x00f1ff09,155913,cpu,na]_0_7" });
    expect(snap.warnings.map((w) => w.reason)).toEqual(["unknown_level"]);
  });

  it("skips recovery records (Assertion 0) with a note, and reads an empty or null fault list as no faults", () => {
    const recovered = parseDeviceInfo(withSwitch({ FaultCode: [fault({ Assertion: 0 })], FaultLevel: "NotHandle", UpdateTime: 1, NodeStatus: "Healthy" }));
    expect(recovered.switchInfo!.faults).toEqual([]);
    expect(recovered.warnings.map((w) => w.reason)).toEqual(["switch_recovery_record"]);
    expect(parseDeviceInfo(withSwitch({ FaultCode: null, FaultLevel: "NotHandle", UpdateTime: 1, NodeStatus: "Healthy", FaultTimeAndLevelMap: null })).switchInfo!.faults).toEqual([]);
  });

  it.each([
    ["SwitchInfoCfg that is not JSON", "{", "not_json", "data.SwitchInfoCfg"],
    ["SwitchInfoCfg that is an array", "[]", "not_object", "data.SwitchInfoCfg"],
    ["a FaultCode that is not an array", { FaultCode: "x" }, "not_array", "data.SwitchInfoCfg.FaultCode"],
    ["a fault given as an object, not a JSON string", { FaultCode: [{ AssembledFaultCode: "x" }] }, "not_string", "data.SwitchInfoCfg.FaultCode[0]"],
    ["a fault string that is not JSON", { FaultCode: ["{oops"] }, "not_json", "data.SwitchInfoCfg.FaultCode[0]"],
    ["a fault without AssembledFaultCode", { FaultCode: [JSON.stringify({ SwitchChipId: 0 })] }, "bad_switch_code", "data.SwitchInfoCfg.FaultCode[0]"],
    ["a chip id that is text", { FaultCode: [fault({ SwitchChipId: "0" })] }, "not_integer", "data.SwitchInfoCfg.FaultCode[0].SwitchChipId"],
    ["a FaultTimeAndLevelMap that is a list", { FaultCode: [], FaultTimeAndLevelMap: [] }, "not_object", "data.SwitchInfoCfg.FaultTimeAndLevelMap"],
    ["a NodeStatus that is a number", { FaultCode: [], NodeStatus: 1 }, "not_string", "data.SwitchInfoCfg.NodeStatus"],
  ])("rejects %s, naming the path", (_, switchInfo, reason, where) => {
    expect(() => parseDeviceInfo(withSwitch(switchInfo))).toThrow(DeviceInfoError);
    try {
      parseDeviceInfo(withSwitch(switchInfo));
    } catch (error) {
      expect((error as DeviceInfoError).problem).toMatchObject({ reason, path: where });
    }
  });
});
