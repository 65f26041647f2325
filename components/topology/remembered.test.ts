import { describe, expect, it } from "vitest";
import type { TopologyNode } from "@/lib/topology/model";
import { REMEMBERED, remembered, rememberedPerNode } from "./remembered";

describe("labels remembered", () => {
  it("formats a value once, and again once too many values were kept", () => {
    const formatted: number[] = [];
    const label = remembered((rank: number) => {
      formatted.push(rank);
      return `Rank ${rank}`;
    });
    expect([label(7), label(7), label(8), label(7)]).toEqual(["Rank 7", "Rank 7", "Rank 8", "Rank 7"]);
    expect(formatted).toEqual([7, 8]);
    for (let rank = 100; rank < 100 + REMEMBERED; rank++) label(rank);
    formatted.length = 0;
    expect(label(7)).toBe("Rank 7");
    expect(formatted).toEqual([7]);
  });

  it("formats a node once, and another node with the same id afresh (a new view's node)", () => {
    let calls = 0;
    const label = rememberedPerNode((node) => `${node.id} #${++calls}`);
    const node = { id: "s/d1" } as TopologyNode;
    expect(label(node)).toBe("s/d1 #1");
    expect(label(node)).toBe("s/d1 #1");
    expect(label({ ...node })).toBe("s/d1 #2");
  });
});
