import { describe, expect, it } from "vitest";
import { generateFromTemplate, validateRankTable, type JsonValue } from "@/lib/rank-table";
import { applyEdit } from "./edit";
import { indexIssues, issueTarget, tableStructure } from "./structure";

describe("table structure and findings index", () => {
  const table = generateFromTemplate({ superPods: 2, serversPerSuperPod: 2, npusPerServer: 2 }) as unknown as JsonValue;

  it("one row per die, servers under their super pods", () => {
    const structure = tableStructure(table);
    expect(structure.rows).toHaveLength(16);
    expect(structure.rows[5]).toMatchObject({ key: "1/1", server: 1, device: 1, serverId: "node_1", values: { device_id: "1", rank_id: "5" } });
    expect(structure.pods.map((pod) => [pod.superPodId, pod.servers.map((server) => server.serverId)])).toEqual([
      ["0", ["node_0", "node_1"]],
      ["1", ["node_2", "node_3"]],
    ]);
    expect(tableStructure({ server_list: [{ server_id: "a", device: [{ device_id: "0" }] }] }).pods).toEqual([{ index: -1, superPodId: "", servers: [expect.objectContaining({ serverId: "a" })] }]);
  });

  it("marks the field, the die and the server of a finding, and says which grid cell it is", () => {
    const broken = applyEdit(table, { type: "set", path: { server: 2, device: 1 }, field: "device_ip", value: "10.0.0.0" });
    const index = indexIssues(validateRankTable(broken).issues);
    expect(index.byPath.get("/server_list/2/device/1/device_ip")?.map((issue) => issue.code)).toContain("RT036");
    expect(index.byRow.get("2/1")).toBe("error");
    expect(index.byServer.get(2)).toBe("error");
    expect(issueTarget("/server_list/2/device/1/device_ip")).toEqual({ server: 2, device: 1, field: "device_ip" });
    expect(issueTarget("/server_list/3/host_ip")).toEqual({ server: 3, device: undefined, field: "host_ip" });
    expect(issueTarget("/super_pod_list/0")).toBeUndefined();
  });
});
