import * as echarts from "echarts/core";
import type { EChartsInstance } from "./echart";

/**
 * Has zrender allocate the canvases a progressive series will draw on, in a task before the frame that first draws
 * it: a new canvas's first drawing takes 8–10 ms (its buffer allocated; Chromium without a GPU), and a progressive
 * series's first frame allocated two, its incremental layer and the layer of what is drawn above it (issue 21: no
 * task over 50 ms). The incremental layer has no public handle: one empty incremental element at the series's `z`,
 * painted and taken away, makes both. zrender keeps its layers, so the chart's later drawings reuse them.
 */
export function allocateIncrementalLayers(chart: EChartsInstance, z = 0): void {
  const zr = chart.getZr();
  if ((zr.painter as unknown as { getType(): string }).getType() !== "canvas") return;
  const probe = new echarts.graphic.Rect({ shape: { x: 0, y: 0, width: 0, height: 0 }, silent: true, z });
  (probe as unknown as { incremental: number }).incremental = 1;
  zr.add(probe);
  zr.flush();
  zr.remove(probe);
}
