import { describe, expect, it } from "vitest";
import { loadInSteps } from "./load-in-steps";

describe("loadInSteps", () => {
  it("runs the steps in order, each in a task after the last, then the module; once for every caller", async () => {
    const seen: string[] = [];
    const step = (name: string) => async () => {
      seen.push(name);
      // Another task's work lands between steps: each step is a task of its own.
      setTimeout(() => seen.push(`task after ${name}`), 0);
    };
    const load = loadInSteps([step("a"), step("b")], async () => (seen.push("module"), 42));
    const [first, second] = await Promise.all([load(), load()]);
    expect([first, second]).toEqual([42, 42]);
    expect(seen).toEqual(["a", "task after a", "b", "task after b", "module"]);
    await load();
    expect(seen.filter((name) => name === "module")).toHaveLength(1);
  });

  it("tries again on the next call after a failed step", async () => {
    let failures = 1;
    const load = loadInSteps([async () => (failures-- > 0 ? Promise.reject(new Error("offline")) : undefined)], async () => "loaded");
    await expect(load()).rejects.toThrow("offline");
    await expect(load()).resolves.toBe("loaded");
  });
});
