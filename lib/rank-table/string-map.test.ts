import { describe, expect, it } from "vitest";
import { StringMap } from "./string-map";

describe("StringMap", () => {
  it("answers as a Map does for a long run of sets, deletes and gets (growing, deleting inside probe runs)", () => {
    // Few distinct keys (hex EIDs that differ in their last digits), so that operations meet the same keys and runs
    // of occupied slots form and break up; a seeded generator, so a failure repeats.
    let seed = 21;
    const random = () => ((seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
    const map = new StringMap<number>();
    const expected = new Map<string, number>();
    for (let step = 0; step < 100_000; step++) {
      const key = Math.floor(random() * 300).toString(16).padStart(32, "0");
      const kind = random();
      if (kind < 0.5) {
        map.set(key, step);
        expected.set(key, step);
      } else if (kind < 0.75) expect(map.delete(key)).toBe(expected.delete(key));
      else expect(map.get(key)).toBe(expected.get(key));
    }
    expect(map.size).toBe(expected.size);
    for (let n = 0; n < 300; n++) {
      const key = n.toString(16).padStart(32, "0");
      expect(map.get(key)).toBe(expected.get(key));
      expect(map.has(key)).toBe(expected.has(key));
    }
  });

  it("tells apart keys that differ in case and keys that collide in the slots", () => {
    const map = new StringMap<string>();
    const keys = Array.from({ length: 5000 }, (_, i) => (i % 2 ? "ABCDEF" : "abcdef") + i);
    for (const key of keys) map.set(key, key);
    for (const key of keys) expect(map.get(key)).toBe(key);
    expect(map.get("ABCDEF0")).toBeUndefined();
    expect(map.size).toBe(5000);
  });
});
