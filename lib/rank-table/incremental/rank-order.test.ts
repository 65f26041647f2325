/** The order keys and list surgery under the incremental validator's splices. */
import { describe, expect, it } from "vitest";
import { RankOrder, replaceRange } from "./rank-order";

describe("RankOrder", () => {
  it("maps entries, positions and keys, and keeps keys ascending and stable across a splice", () => {
    // Entry 1 is not a rank.
    const order = new RankOrder([true, false, true, true], 4);
    expect([0, 1, 2, 3].map((entry) => order.positionOfEntry(entry))).toEqual([0, -1, 1, 2]);
    const kept = [order.key(0), order.key(2)];
    // Entries 1–2 (the non-rank and the rank at position 1) replaced by two ranks.
    const fresh = order.splice({ at: 1, removed: 2, inserted: [true, true] })!;
    expect(order.size).toBe(4);
    expect([0, 1, 2, 3].map((position) => order.entry(position))).toEqual([0, 1, 2, 3]);
    expect([order.key(0), order.key(3)]).toEqual(kept);
    expect(fresh).toEqual([order.key(1), order.key(2)]);
    expect(order.key(0) < order.key(1) && order.key(1) < order.key(2) && order.key(2) < order.key(3)).toBe(true);
    expect(order.position(order.key(2))).toBe(2);
  });

  it("refuses an insert with no whole number left between two keys", () => {
    const order = new RankOrder([true, true], 1);
    let refused = false;
    for (let n = 0; n < 40 && !refused; n++) refused = order.splice({ at: 1, removed: 0, inserted: [true] }) === undefined;
    expect(refused).toBe(true);
  });
});

describe("replaceRange", () => {
  it("splices in more items than a call can take as arguments", () => {
    const list = Array.from({ length: 300_000 }, (_, i) => i);
    const items = Array.from({ length: 200_000 }, (_, i) => -1 - i);
    replaceRange(list, 10, 5, items);
    expect(list.length).toBe(300_000 - 5 + 200_000);
    expect(list.slice(8, 12)).toEqual([8, 9, -1, -2]);
    expect(list[10 + 200_000]).toBe(15);
    replaceRange(list, 0, 2, ["a" as unknown as number]);
    expect(list.slice(0, 2)).toEqual(["a", 2]);
  });
});
