import { describe, expect, it } from "vitest";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { largeA3Cluster } from "@/lib/topology/large-cluster";
import { indexOf } from "@/lib/topology/test-support";
import { buildTopologyView } from "@/lib/topology/view";
import { chartOption, clipBetween, fitScale, levelOfDetail, nodeKey, parseNodeKey, touching, type ChartLabels } from "./chart-option";

const labels: ChartLabels = {
  superPod: (id) => `Super pod ${id}`,
  npu: (i) => `NPU ${i}`,
  die: (n) => `Die ${n.dieIndex}`,
  dieShort: (n) => `dev ${n.deviceId}`,
  counts: () => "",
  rank: (r) => `rank ${r}`,
  linkCount: (k, c) => `${k} ×${c}`,
  tooltip: (n) => n.id,
  linkTooltip: (k) => k,
};

describe("chart option", () => {
  it("clips a link to the borders of the boxes it joins", () => {
    expect(clipBetween({ x: 0, y: 0, width: 10, height: 10 }, { x: 30, y: 0, width: 10, height: 10 })).toEqual([
      [10, 5],
      [30, 5],
    ]);
  });

  it("tells neighbours (joined straight) from far boxes (joined by a curve outside the grid)", () => {
    const box = (x: number, y: number) => ({ x, y, width: 10, height: 10 });
    expect(touching(box(0, 0), box(15, 0))).toBe(true);
    expect(touching(box(0, 0), box(0, 15))).toBe(true);
    expect(touching(box(0, 0), box(0, 45))).toBe(false);
    expect(touching(box(0, 0), box(15, 15))).toBe(false);
  });

  it("round-trips node keys, including server ids with slashes", () => {
    expect(parseNodeKey(nodeKey({ kind: "die", id: "10.0.0.1/d3" }))).toEqual({ kind: "die", id: "10.0.0.1/d3" });
    expect(parseNodeKey("rack:1")).toBeNull();
  });

  it("folds servers into super pods and dies into servers when zoomed out", () => {
    const large = indexOf(largeA3Cluster(32, 32));
    const cluster = buildTopologyView(large, "cluster", null);
    const fit = fitScale(cluster.bounds, { width: 1200, height: 700 });
    expect(levelOfDetail(cluster, fit).showServerCells).toBe(true);
    expect(levelOfDetail(cluster, fit / 3).showServerCells).toBe(false);
    const pod = buildTopologyView(large, "superpod", "pod-0");
    const podFit = fitScale(pod.bounds, { width: 1200, height: 700 });
    expect(levelOfDetail(pod, podFit).showDies).toBe(true);
    expect(levelOfDetail(pod, podFit).dieLabels).toBe("none");
    expect(levelOfDetail(pod, podFit * 8).dieLabels).not.toBe("none");
    expect(levelOfDetail(pod, podFit / 6).showDies).toBe(false);
  });

  it("draws a server's 16 dies and 8 dashed backup-rail links, sized to the fitted canvas", () => {
    const view = buildTopologyView(indexOf(demoA3Cluster()), "server", "sp0-node03");
    const option = chartOption({ view, size: { width: 1000, height: 600 }, zoom: 1, theme: "light", selected: "die:sp0-node03/d5", ranks: undefined, labels });
    const series = option.series[0]!;
    const dies = series.data.filter((d) => String(d.id).startsWith("die:"));
    expect(dies).toHaveLength(16);
    const fit = fitScale(view.bounds, { width: 1000, height: 600 });
    const first = view.nodes.find((n) => n.kind === "die")!;
    expect(dies[0]!.symbolSize).toEqual([first.width * fit, first.height * fit]);
    expect(series.edges).toHaveLength(8);
    expect(series.edges.every((e) => (e.lineStyle as { type: string }).type === "dashed")).toBe(true);
    const selected = dies.find((d) => d.id === "die:sp0-node03/d5")!;
    expect((selected.itemStyle as { borderWidth: number }).borderWidth).toBe(4);
    expect(String((dies[0]!.label as { formatter: string }).formatter)).toContain("rank 48");
  });
});
