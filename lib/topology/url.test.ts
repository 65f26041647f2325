import { describe, expect, it } from "vitest";
import { drawsRows, landingViewOf, parseSelection, topologyQuery, topologySearchParams, viewOf } from "./url";

describe("topology search params", () => {
  it("parses a deep link and writes it back the same", () => {
    const raw = { cluster: "atlas-a3-demo", level: "server", id: "sp0-node03", sel: "die:sp0-node03/d5", q: "192.168.4.11", field: "deviceIp" };
    const state = topologySearchParams.parse(raw);
    expect(state).toEqual({ ...raw, ranks: "inventory", hops: 0 });
    expect(Object.fromEntries(new URLSearchParams(topologyQuery(state)))).toEqual(raw);
    expect(parseSelection(state.sel)).toEqual({ kind: "die", id: "sp0-node03/d5" });
    expect(topologySearchParams.parse({ ranks: "table:12" }).ranks).toBe("table:12");
    // A bus plane's key holds colons and a slash: the kind is what comes before the first colon.
    const plane = topologySearchParams.parse({ cluster: "atlas-a3-demo", level: "superpod", id: "0", sel: "plane:pod:0/ub:3" });
    expect(parseSelection(plane.sel)).toEqual({ kind: "plane", id: "pod:0/ub:3" });
    expect(new URLSearchParams(topologyQuery(plane)).get("sel")).toBe("plane:pod:0/ub:3");
  });

  it("falls back to the cluster view on anything it does not understand", () => {
    expect(topologySearchParams.parse({ level: "hall", sel: "hall:1", cluster: "Bad Slug!", ranks: "x" })).toEqual({
      level: "cluster",
      field: "any",
      ranks: "inventory",
      hops: 0,
    });
    // A row of racks is a level and a kind (lib/topology/rows.ts).
    expect(topologySearchParams.parse({ level: "row", id: "row3", sel: "rack:rack400" })).toMatchObject({ level: "row", id: "row3", sel: "rack:rack400" });
    expect(topologyQuery({ level: "cluster", id: "ignored" })).toBe("");
  });

  it("keeps a server view's neighbourhood (hops, link kinds, seed die) in the link, and only for a server view", () => {
    const raw = { cluster: "big", level: "server", id: "p3-s005", hops: "2", via: "roce,hccs", from: "p3-s005/d4" };
    const state = topologySearchParams.parse(raw);
    expect(state).toMatchObject({ hops: 2, via: ["hccs", "roce"], from: "p3-s005/d4" });
    expect(viewOf(state).expand).toEqual({ hops: 2, via: ["hccs", "roce"], from: "p3-s005/d4" });
    expect(Object.fromEntries(new URLSearchParams(topologyQuery(state)))).toEqual({ ...raw, via: "hccs,roce" });
    // Out of range, unknown kinds, or another level: no expansion.
    expect(topologySearchParams.parse({ hops: "7", via: "warp" })).toMatchObject({ hops: 0, via: [] });
    expect(viewOf(topologySearchParams.parse({ level: "superpod", id: "0", hops: "2" })).expand.hops).toBe(0);
    expect(topologyQuery({ level: "superpod", id: "0", hops: 2 })).toBe("level=superpod&id=0");
  });

  it("lands on a node in the view that shows it, selected", () => {
    expect(landingViewOf({ kind: "die", id: "sp0-node03/d5", serverId: "sp0-node03" })).toEqual({ level: "server", id: "sp0-node03", sel: "die:sp0-node03/d5" });
    expect(landingViewOf({ kind: "npu", id: "sp0-node03/npu2" })).toEqual({ level: "server", id: "sp0-node03", sel: "npu:sp0-node03/npu2" });
    expect(landingViewOf({ kind: "server", id: "sp1-node07", superPodId: "1" })).toEqual({ level: "superpod", id: "1", sel: "server:sp1-node07" });
    expect(landingViewOf({ kind: "server", id: "node_2", superPodId: null })).toEqual({ level: "cluster", id: undefined, sel: "server:node_2" });
    expect(landingViewOf({ kind: "plane", id: "pod:1/ub:3", superPodId: "1" })).toEqual({ level: "superpod", id: "1", sel: "plane:pod:1/ub:3" });
    expect(landingViewOf({ kind: "superpod", id: "1" })).toEqual({ level: "cluster", id: undefined, sel: "superpod:1" });
    expect(landingViewOf({ kind: "switch", id: "server:sp1-node07/chip:3" })).toEqual({ level: "server", id: "sp1-node07", sel: "switch:server:sp1-node07/chip:3" });
    expect(landingViewOf({ kind: "switch", id: "pod:1/ub:2/sw:5" })).toEqual({ level: "superpod", id: "1", sel: "switch:pod:1/ub:2/sw:5" });
    expect(landingViewOf({ kind: "plane", id: "pod:1/ub:2" })).toEqual({ level: "superpod", id: "1", sel: "plane:pod:1/ub:2" });
    expect(landingViewOf({ kind: "plane", id: "param" })).toEqual({ level: "cluster", id: undefined, sel: "plane:param" });
  });

  it("lands on a rack in the view that draws it: its row's when the cluster draws rows, its pod's for a pod's rack", () => {
    // Rows of 128 racks (lib/topology/rows.ts): rack 64 is in row 0, rack 129 in row 1.
    expect(landingViewOf({ kind: "rack", id: "rack64", rowsDrawn: true })).toEqual({ level: "row", id: "row0", sel: "rack:rack64" });
    expect(landingViewOf({ kind: "rack", id: "rack129", rowsDrawn: true })).toEqual({ level: "row", id: "row1", sel: "rack:rack129" });
    // Few racks: the cluster view draws them.
    expect(landingViewOf({ kind: "rack", id: "rack64" })).toEqual({ level: "cluster", id: undefined, sel: "rack:rack64" });
    expect(landingViewOf({ kind: "rack", id: "pod-0/rack8", rowsDrawn: true })).toEqual({ level: "superpod", id: "pod-0", sel: "rack:pod-0/rack8" });
    expect(landingViewOf({ kind: "row", id: "row1", rowsDrawn: true })).toEqual({ level: "cluster", id: undefined, sel: "row:row1" });
    // A plain server whose rack is not known: the cluster view draws rows, not servers, so its own view.
    expect(landingViewOf({ kind: "server", id: "a2-0517", rowsDrawn: true })).toEqual({ level: "server", id: "a2-0517", sel: "server:a2-0517" });
    expect(landingViewOf({ kind: "server", id: "a2-0517", rackId: "rack64", rowsDrawn: true })).toEqual({ level: "rack", id: "rack64", sel: "server:a2-0517" });
  });

  it("tells a view of a cluster drawn by rows by its row nodes or the row in its path", () => {
    const crumb = (level: "cluster" | "row" | "rack", id: string | null) => ({ level, id, label: id ?? "" });
    expect(drawsRows({ path: [crumb("cluster", null)], nodes: [{ kind: "row" } as never] })).toBe(true);
    expect(drawsRows({ path: [crumb("cluster", null), crumb("row", "row0"), crumb("rack", "rack64")], nodes: [] })).toBe(true);
    expect(drawsRows({ path: [crumb("cluster", null)], nodes: [{ kind: "rack" } as never] })).toBe(false);
  });
});
