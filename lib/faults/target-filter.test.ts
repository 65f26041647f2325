import { describe, expect, it } from "vitest";
import { targetFilterOf, type ServerTargets } from "./target-filter";

const inventory = new Map<string, ServerTargets>([
  ["sp0-node01", { npuIndexes: [0, 1], deviceIds: [0, 1, 2, 3] }],
  ["sp0-node010", { npuIndexes: [0], deviceIds: [0, 1] }],
]);
const lookup = (serverId: string) => inventory.get(serverId);

describe("targetFilterOf", () => {
  it("names everything of a known server: itself, its NPUs, dies and switch chips, and links at its dies", () => {
    expect(targetFilterOf("sp0-node01", lookup)).toEqual({
      kind: "exact",
      targetKeys: [
        "server:sp0-node01",
        "npu:sp0-node01/0",
        "npu:sp0-node01/1",
        "die:sp0-node01/0",
        "die:sp0-node01/1",
        "die:sp0-node01/2",
        "die:sp0-node01/3",
        ...[0, 1, 2, 3, 4, 5, 6].map((chip) => `switch:sp0-node01/${chip}`),
      ],
      linkEnds: ["sp0-node01/0", "sp0-node01/1", "sp0-node01/2", "sp0-node01/3"],
    });
  });

  it("matches a die exactly, not every die whose number starts with the same digit", () => {
    expect(targetFilterOf(" sp0-node01/1 ", lookup)).toEqual({ kind: "exact", targetKeys: ["die:sp0-node01/1"], linkEnds: ["sp0-node01/1"] });
  });

  it("does not take one server for another whose id it begins", () => {
    const filter = targetFilterOf("sp0-node01", lookup);
    expect(filter.kind === "exact" && filter.targetKeys.some((key) => key.includes("sp0-node010"))).toBe(false);
  });

  it("searches by substring for what the inventory does not know", () => {
    expect(targetFilterOf("node0", lookup)).toEqual({ kind: "search", text: "node0" });
    expect(targetFilterOf("sp0-node01/9", lookup)).toEqual({ kind: "search", text: "sp0-node01/9" });
    expect(targetFilterOf("sp0-node01/", lookup)).toEqual({ kind: "search", text: "sp0-node01/" });
    expect(targetFilterOf("sp9-node01/1", lookup)).toEqual({ kind: "search", text: "sp9-node01/1" });
  });
});
