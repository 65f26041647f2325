import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { computeCheckCode, DeviceInfoError, deviceIdOfName, parseDeviceInfo } from "./device-info";
import { diffSnapshot } from "./snapshot";

const sample = readFileSync(path.join(__dirname, "fixtures/device-info-a3-sample.json"), "utf8");
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
    expect(snap.warnings[0]).toMatch(/CheckCode/);
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
    const open = [{ id: "x", deviceId: 2, npuName: "Ascend910-2", code: "81078603" }];
    expect(diffSnapshot(open, snapWith([linkDown], 105))).toEqual({ open: [], close: [], unchanged: ["x"] });
    expect(diffSnapshot(open, snapWith([], 130))).toEqual({ open: [], close: [{ id: "x", endedAt: 130_000 }], unchanged: [] });
  });
});
