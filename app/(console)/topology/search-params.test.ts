import { describe, expect, it } from "vitest";
import { parseSelection, topologyQuery, topologySearchParams } from "./search-params";

describe("topology search params", () => {
  it("parses a deep link and writes it back the same", () => {
    const raw = { cluster: "atlas-a3-demo", level: "server", id: "sp0-node03", sel: "die:sp0-node03/d5", q: "192.168.4.11", field: "deviceIp" };
    const state = topologySearchParams.parse(raw);
    expect(state).toEqual({ ...raw, ranks: "inventory" });
    expect(Object.fromEntries(new URLSearchParams(topologyQuery(state)))).toEqual(raw);
    expect(parseSelection(state.sel)).toEqual({ kind: "die", id: "sp0-node03/d5" });
    expect(topologySearchParams.parse({ ranks: "table:12" }).ranks).toBe("table:12");
  });

  it("falls back to the cluster view on anything it does not understand", () => {
    expect(topologySearchParams.parse({ level: "rack", sel: "rack:1", cluster: "Bad Slug!", ranks: "x" })).toEqual({
      level: "cluster",
      field: "any",
      ranks: "inventory",
    });
    expect(topologyQuery({ level: "cluster", id: "ignored" })).toBe("");
  });
});
