import { describe, expect, it } from "vitest";
import type { Health, TopologyNode } from "@/lib/topology/model";
import { FIRST_ORDER, orderDies, pageOfDie } from "./die-rows";

const die = (id: string, deviceId: number, npuIndex: number, health: Health): TopologyNode =>
  ({ kind: "die", id, deviceId, npuIndex, health }) as TopologyNode;
const dies = [die("s/d2", 2, 1, "faulty"), die("s/d0", 0, 0, "healthy"), die("s/d3", 3, 1, "healthy"), die("s/d1", 1, 0, "degraded")];
const ids = (rows: TopologyNode[]) => rows.map((row) => row.id);

describe("the die table's rows", () => {
  it("lists every die by device id at first, without reordering what it was given", () => {
    expect(ids(orderDies(dies, FIRST_ORDER, null))).toEqual(["s/d0", "s/d1", "s/d2", "s/d3"]);
    expect(ids(dies)).toEqual(["s/d2", "s/d0", "s/d3", "s/d1"]);
  });

  it("sorts by NPU either way, ties in the view's order", () => {
    expect(ids(orderDies(dies, { key: "npuIndex", order: "ascend" }, null))).toEqual(["s/d0", "s/d1", "s/d2", "s/d3"]);
    expect(ids(orderDies(dies, { key: "npuIndex", order: "descend" }, null))).toEqual(["s/d2", "s/d3", "s/d0", "s/d1"]);
  });

  it("keeps only the dies of the chosen health states; none chosen is all", () => {
    expect(ids(orderDies(dies, FIRST_ORDER, ["healthy"]))).toEqual(["s/d0", "s/d3"]);
    expect(ids(orderDies(dies, FIRST_ORDER, ["faulty", "degraded"]))).toEqual(["s/d1", "s/d2"]);
    expect(orderDies(dies, FIRST_ORDER, [])).toHaveLength(4);
  });

  it("finds the page that holds a die, and none for a die not listed", () => {
    const many = Array.from({ length: 70 }, (_, i) => die(`s/d${i}`, i, i >> 1, "healthy"));
    expect(pageOfDie(many, "s/d0", 32)).toBe(1);
    expect(pageOfDie(many, "s/d31", 32)).toBe(1);
    expect(pageOfDie(many, "s/d32", 32)).toBe(2);
    expect(pageOfDie(many, "s/d69", 32)).toBe(3);
    expect(pageOfDie(many, "s/d69", 64)).toBe(2);
    expect(pageOfDie(many, "t/d0", 32)).toBeNull();
  });
});
