import { describe, expect, it } from "vitest";
import { compactChange } from "./diff";

describe("compactChange", () => {
  it("keeps only the fields that changed", () => {
    expect(compactChange({ id: 1, name: "a", role: "viewer", tags: [1] }, { id: 1, name: "a", role: "editor", tags: [1] })).toEqual({
      before: { role: "viewer" },
      after: { role: "editor" },
    });
  });

  it("keeps whole records for creates and deletes, and masks secrets", () => {
    expect(compactChange(null, { name: "ci", tokenHash: "abc", password: "x" })).toEqual({
      before: null,
      after: { name: "ci", tokenHash: "***", password: "***" },
    });
    expect(compactChange({ name: "ci" }, undefined)).toEqual({ before: { name: "ci" }, after: null });
  });

  it("compares dates by value and counts added or removed keys", () => {
    const at = new Date("2026-01-01T00:00:00Z");
    expect(compactChange({ at, gone: 1 }, { at: new Date(at), added: 2 })).toEqual({ before: { gone: 1 }, after: { added: 2 } });
  });
});
