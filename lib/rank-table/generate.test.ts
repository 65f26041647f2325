import { describe, expect, it } from "vitest";
import { generateFromHccn, generateFromTemplate, parseHccnConf } from "./generate";
import { compilePattern, PatternError } from "./pattern";
import { validateRankTable } from "./validate";

describe("generateFromTemplate", () => {
  it("builds a clean A3 super pod table: pods x servers x NPUs x dies with paired dies and ports", () => {
    const table = generateFromTemplate({ superPods: 2, serversPerSuperPod: 3, npusPerServer: 8, basePort: 16666 });
    const report = validateRankTable(table);
    expect(report).toMatchObject({ valid: true, version: "1.2", mode: "super-pod", stats: { superPods: 2, servers: 6, devices: 96 }, issues: [] });
    expect(table.super_pod_list![1]).toEqual({ super_pod_id: "1", server_list: [{ server_id: "node_3" }, { server_id: "node_4" }, { server_id: "node_5" }] });
    expect(table.server_list[4]!.device[3]).toEqual({
      device_id: "3", super_device_id: "19", device_ip: "10.0.4.3", device_port: "16685",
      backup_device_ip: "10.0.4.2", backup_device_port: "16701", host_port: "16669", rank_id: "67",
    });
  });

  it("builds a 1.0 table without super pod fields", () => {
    const table = generateFromTemplate({ version: "1.0", superPods: 1, serversPerSuperPod: 2, npusPerServer: 8, diesPerNpu: 1, hostIp: null });
    expect(validateRankTable(table).issues.map((issue) => issue.code)).toEqual(["RT024", "RT024"]);
    expect(table.super_pod_list).toBeUndefined();
    expect(table.server_list[1]!.device[7]).toEqual({ device_id: "7", device_ip: "10.0.1.7", rank_id: "15" });
  });

  it("uses the given patterns", () => {
    const table = generateFromTemplate({ npusPerServer: 1, serverId: "sp{pod}-n{local+1}", deviceIp: "192.168.{server+1}.{npu*10+die}" });
    expect(table.server_list[0]).toMatchObject({ server_id: "sp0-n1", device: [{ device_ip: "192.168.1.0" }, { device_ip: "192.168.1.1" }] });
  });

  it("rejects impossible templates", () => {
    expect(() => generateFromTemplate({ superPods: 0 })).toThrow(RangeError);
    expect(() => generateFromTemplate({ serverId: "{nope}" })).toThrow(PatternError);
  });
});

describe("compilePattern", () => {
  it("evaluates integer arithmetic with precedence and parentheses", () => {
    expect(compilePattern("{a+b*2}-{(a+b)*2}-{a/2}-{a%3}", ["a", "b"])({ a: 7, b: 3 })).toBe("13-20-3-1");
  });

  it.each(["{a", "a}", "{}", "{a+}", "{(a}", "{a b}", "{x}"])("rejects %j", (pattern) => {
    expect(() => compilePattern(pattern, ["a"])).toThrow(PatternError);
  });
});

describe("generation from /etc/hccn.conf", () => {
  const conf = (octet: number) => Array.from({ length: 4 }, (_, id) => `address_${id}=192.168.${octet}.${id + 6}\nnetmask_${id}=255.255.255.0\nnetdetect_${id}=192.168.${octet}.1`).join("\n");

  it("reads the address_N lines", () => {
    expect(parseHccnConf("# c\naddress_1=10.0.0.2\n address_0 = 10.0.0.1 \nnetmask_0=255.255.255.0")).toEqual(new Map([[1, "10.0.0.2"], [0, "10.0.0.1"]]));
  });

  it("builds the seed's 1.2 layout: super pods kept together, dies paired", () => {
    const table = generateFromHccn(
      [
        { serverId: "node_0", hostIp: "172.16.0.100", hccnConf: conf(1), superPodId: "0" },
        { serverId: "node_2", hostIp: "172.16.0.102", hccnConf: conf(3), superPodId: "1" },
        { serverId: "node_1", hostIp: "172.16.0.101", hccnConf: conf(2), superPodId: "0" },
      ],
      { version: "1.2", basePort: 16666 },
    );
    expect(validateRankTable(table).issues).toEqual([]);
    expect(table.server_list.map((server) => server.server_id)).toEqual(["node_0", "node_1", "node_2"]);
    expect(table.server_list[0]!.device[1]).toMatchObject({ device_ip: "192.168.1.7", backup_device_ip: "192.168.1.6", super_device_id: "1" });
    expect(table.server_list[2]!.device[0]).toMatchObject({ super_device_id: "0", rank_id: "8" });
  });

  it("builds the 1.0 layout as generator scripts do", () => {
    const table = generateFromHccn([{ serverId: "10.0.0.1", hccnConf: conf(1) }, { serverId: "10.0.0.2", hostIp: "10.0.0.2", hccnConf: conf(2) }], { version: "1.0" });
    expect(table.server_list[1]!.device[3]).toEqual({ device_id: "3", device_ip: "192.168.2.9", rank_id: "7" });
    expect(validateRankTable(table).issues.map((issue) => issue.code)).toEqual(["RT024"]);
  });
});
