import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateFromTemplate, parseRankTable, validateRankTable, type JsonValue } from "@/lib/rank-table";
import { applyEdit } from "./edit";
import { gridSlots, indexIssues, issueTarget, slotRow, tableStructure } from "./structure";

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

  it("keeps the rows, servers and pods an edit did not touch (the same objects), so memoised rows skip re-rendering", () => {
    const before = tableStructure(table);
    const edited = applyEdit(table, { type: "set", path: { server: 2, device: 1 }, field: "device_ip", value: "10.9.9.9" });
    const after = tableStructure(edited, before);
    expect(after.rows).toHaveLength(16);
    const changed = after.rows.map((row, index) => (row === before.rows[index] ? undefined : row.key)).filter(Boolean);
    expect(changed).toEqual(["2/1"]);
    expect(after.rows[9]!.values.device_ip).toBe("10.9.9.9");
    expect(after.servers.filter((server, index) => server !== before.servers[index]).map((server) => server.serverId)).toEqual(["node_2"]);
    expect(after.pods[0]).toBe(before.pods[0]);
    expect(after.pods[1]).not.toBe(before.pods[1]);
    // The same result as deriving it afresh.
    expect(after).toEqual(tableStructure(edited));

    // A table-level field changes no row, server or pod: the previous structure itself.
    expect(tableStructure(applyEdit(table, { type: "set", path: {}, field: "status", value: "initializing" }), before)).toBe(before);
  });

  it("after a die is removed or a server added, shifted rows are rebuilt and rows of untouched entries are kept", () => {
    const before = tableStructure(table);
    const removed = tableStructure(applyEdit(table, { type: "removeDevice", server: 1, device: 0 }), before);
    expect(removed.rows.map((row) => row.key)).toEqual(tableStructure(applyEdit(table, { type: "removeDevice", server: 1, device: 0 })).rows.map((row) => row.key));
    expect(removed.rows.slice(0, 4).every((row, index) => row === before.rows[index])).toBe(true);
    expect(removed.rows[4]).toMatchObject({ key: "1/0", values: { device_id: "1" } });
    expect(removed.rows[4]).not.toBe(before.rows[5]);
    // Servers after the shortened one keep their rows (their entries are unchanged) but get new positions.
    expect(removed.rows.slice(7).every((row, index) => row === before.rows[index + 8])).toBe(true);
    expect(removed.servers[2]).not.toBe(before.servers[2]);
    expect(removed.servers[2]!.firstRow).toBe(7);

    const added = applyEdit(table, { type: "addServer", pod: 0 });
    const grown = tableStructure(added, before);
    expect(grown).toEqual(tableStructure(added));
    expect(grown.rows[0]).toBe(before.rows[0]);
    // The server after the inserted one moved in server_list: its rows carry new positions.
    expect(grown.rows.find((row) => row.serverId === "node_2")!.key).toBe("3/0");
  });

  it("a finding list that did not change keeps its array in the next index", () => {
    const broken = applyEdit(table, { type: "set", path: { server: 2, device: 1 }, field: "device_ip", value: "10.0.0.0" });
    const first = indexIssues(validateRankTable(broken).issues);
    const worse = applyEdit(broken, { type: "set", path: { server: 3, device: 0 }, field: "rank_id", value: "x" });
    const second = indexIssues(validateRankTable(worse).issues, first);
    const path = "/server_list/2/device/1/device_ip";
    expect(second.byPath.get(path)).toBe(first.byPath.get(path));
    const fixed = indexIssues(validateRankTable(table).issues, second);
    expect(fixed.byPath.get(path)).toBeUndefined();
    expect(indexIssues(validateRankTable(broken, { lang: "zh" }).issues, first).byPath.get(path)).not.toBe(first.byPath.get(path));
  });

  it("grid slots stay the same list across field edits and follow added or removed dies", () => {
    const before = tableStructure(table);
    const slots = gridSlots(before.rows);
    const edited = tableStructure(applyEdit(table, { type: "set", path: { server: 1, device: 1 }, field: "rank_id", value: "99" }), before);
    expect(gridSlots(edited.rows, slots)).toBe(slots);
    expect(slotRow(edited.rows, slots[5]!).values.rank_id).toBe("99");
    expect(slotRow(before.rows, slots[5]!).values.rank_id).toBe("5");

    const removed = tableStructure(applyEdit(table, { type: "removeDevice", server: 0, device: 3 }), before);
    const after = gridSlots(removed.rows, slots);
    expect(after).not.toBe(slots);
    expect(after.map((slot) => slot.key)).toEqual(removed.rows.map((row) => row.key));
    // A slot made before the removal falls back to its own row when its position now holds another die.
    expect(slotRow(removed.rows, slots[15]!)).toBe(slots[15]!.row);
  });
});

describe("table structure of the layouts without server_list", () => {
  const fixture = (name: string) => parseRankTable(readFileSync(`lib/rank-table/fixtures/${name}`, "utf8")).value!;

  it("shows a legacy table's servers and devices, ranks as HCCL gives them", () => {
    const structure = tableStructure(fixture("legacy-reference-template2.jsonc"));
    expect(structure.servers.map((server) => server.serverId)).toEqual(["node_0", "node_1"]);
    expect(structure.rows.map((row) => [row.serverId, row.values.device_id, row.values.device_ip, row.values.rank_id])).toEqual([
      ["node_0", "0", "192.168.1.8", "0"],
      ["node_1", "1", "192.168.1.9", "1"],
    ]);
  });

  it("shows a 2.0 table's ranks grouped by AI Server, and grid edits leave it unchanged", () => {
    const table = fixture("a5-reference-4p.jsonc");
    const structure = tableStructure(table);
    expect(structure.pods[0]!.servers.map((server) => [server.serverId, server.rowCount])).toEqual([["az0-rack0-pod0", 2], ["az0-rack0-pod1", 2]]);
    expect(structure.rows[3]!.values).toMatchObject({ rank_id: "3", device_id: "1", device_port: "16669", host_port: "60004" });
    expect(applyEdit(table, { type: "set", path: { server: 0, device: 0 }, field: "rank_id", value: "9" })).toBe(table);
  });
});

describe('"2.0" rows', () => {
  /** A seeded "2.0" table whose ranks sit in AI Servers in any order, some with no level 0, some not objects. */
  function randomA5(seed: number, ranks: number): JsonValue {
    let state = seed;
    const next = (below: number) => Math.floor(((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * below);
    return {
      version: "2.0",
      rank_list: Array.from({ length: ranks }, (_, position): JsonValue => {
        if (next(20) === 0) return next(2) ? null : "broken";
        const levels: JsonValue[] = [{ net_layer: 1, net_instance_id: "pod0" }];
        if (next(10) > 0) levels.splice(next(2), 0, { net_layer: 0, net_instance_id: next(3) ? `rack${next(6)}` : next(100) });
        return { rank_id: next(4) ? position : String(position), local_id: next(8), device_id: next(8), ...(next(2) ? { device_port: 16666 } : {}), level_list: levels };
      }),
    };
  }

  it("one row per rank object, grouped by AI Server in the order they first appear, each rank's fields as text", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const table = randomA5(seed, 400) as { rank_list: JsonValue[] };
      const structure = tableStructure(table as unknown as JsonValue);
      const objects = table.rank_list.flatMap((rank, position) => (rank !== null && typeof rank === "object" ? [{ rank: rank as Record<string, JsonValue>, position }] : []));
      expect(structure.rows).toHaveLength(objects.length);
      const serverOf = ({ rank }: (typeof objects)[number]) => {
        const level = (rank.level_list as Record<string, JsonValue>[]).find((entry) => entry.net_layer === 0);
        return typeof level?.net_instance_id === "string" ? level.net_instance_id : typeof level?.net_instance_id === "number" ? String(level.net_instance_id) : "";
      };
      const order = [...new Set(objects.map(serverOf))];
      expect(structure.servers.map((server) => server.serverId)).toEqual(order);
      const text = (value: JsonValue | undefined) => (value === undefined ? undefined : String(value));
      const expected = order.flatMap((serverId, server) =>
        objects
          .filter((entry) => serverOf(entry) === serverId)
          .map(({ rank, position }, device) => ({ key: `r${position}`, server, device, serverId, rank: position, values: { rank_id: text(rank.rank_id), local_id: text(rank.local_id), device_id: text(rank.device_id), device_port: text(rank.device_port), host_port: undefined } })),
      );
      expect(structure.rows).toEqual(expected);
      expect(expected.every((row, index) => structure.a5!.rowOfRank[row.rank] === index)).toBe(true);
      structure.servers.forEach((server) => expect(structure.rows.slice(server.firstRow, server.firstRow + server.rowCount).every((row) => row.serverId === server.serverId)).toBe(true));
      expect([...structure.a5!.rowOfRank].filter((row) => row === -1)).toHaveLength(table.rank_list.length - objects.length);
    }
  });
});
