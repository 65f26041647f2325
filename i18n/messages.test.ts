import { describe, expect, it } from "vitest";
import en from "../messages/en.json";
import zh from "../messages/zh-CN.json";

function keys(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

describe("message catalogues", () => {
  it("translate every key into both languages", () => {
    expect(keys(zh).sort()).toEqual(keys(en).sort());
  });

  it("have no empty strings", () => {
    const leaves = (catalogue: object) => keys(catalogue).map((k) => k.split(".").reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], catalogue));
    expect(leaves(en).filter((v) => typeof v !== "string" || !v.trim())).toEqual([]);
    expect(leaves(zh).filter((v) => typeof v !== "string" || !v.trim())).toEqual([]);
  });
});
