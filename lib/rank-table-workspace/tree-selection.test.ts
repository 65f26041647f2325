import { describe, expect, it } from "vitest";
import { generateFromTemplate, type JsonValue } from "@/lib/rank-table";
import { tableStructure } from "./structure";
import { dieNodeKey, podNodeKey, rowsOfNode, selectedPodOf, selectedServerOf, serverNodeKey } from "./tree-selection";

describe("structure tree selection", () => {
  // 2 super pods × 2 servers × 2 NPUs × 2 dies: 4 rows per server.
  const structure = tableStructure(generateFromTemplate({ superPods: 2, serversPerSuperPod: 2, npusPerServer: 2 }) as unknown as JsonValue);
  const keys = (node: string | undefined) => rowsOfNode(structure, node).map((row) => row.key);

  it("a server's or a die's node selects the server; a super pod's node the super pod", () => {
    expect(selectedServerOf(serverNodeKey(3))).toBe(3);
    expect(selectedServerOf(dieNodeKey("2/1"))).toBe(2);
    expect(selectedServerOf(podNodeKey(1))).toBeUndefined();
    expect(selectedServerOf(undefined)).toBeUndefined();
    expect(selectedPodOf(podNodeKey(1))).toBe(1);
    expect(selectedPodOf(serverNodeKey(1))).toBeUndefined();
  });

  it("the grid shows the selected server's or super pod's dies, and everything otherwise", () => {
    expect(keys(undefined)).toHaveLength(16);
    expect(keys(serverNodeKey(1))).toEqual(["1/0", "1/1", "1/2", "1/3"]);
    expect(keys(dieNodeKey("3/2"))).toEqual(["3/0", "3/1", "3/2", "3/3"]);
    expect(keys(podNodeKey(1))).toEqual(["2/0", "2/1", "2/2", "2/3", "3/0", "3/1", "3/2", "3/3"]);
    expect(keys(serverNodeKey(9))).toHaveLength(16);
    expect(keys(podNodeKey(5))).toHaveLength(16);
  });
});
