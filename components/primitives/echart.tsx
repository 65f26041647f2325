"use client";

import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useEffect, useRef, type CSSProperties } from "react";
import { drawTextSpansOnTheirTextsLayer } from "./incremental-text";
import { canvasMeasure, measuredByCharacter } from "./text-measure";

// Tree-shaken ECharts: the canvas renderer here; each chart registers the series and components it draws with.
echarts.use([CanvasRenderer]);
// Labels measured by character, once per font (see measuredByCharacter): most of a labelled frame was the canvas's.
echarts.setPlatformAPI({ measureText: measuredByCharacter(canvasMeasure()) });
drawTextSpansOnTheirTextsLayer();

export type EChartsInstance = echarts.ECharts;
export type EChartsOption = echarts.EChartsCoreOption;

/**
 * A minimal React wrapper for ECharts: creates the chart once its container has a size, hands the instance to
 * `onReady` (to set options and listen to events), resizes it with its container and disposes of it on unmount.
 */
export function EChart({
  onReady,
  onResize,
  style,
  ariaLabel,
  theme,
}: {
  onReady: (chart: EChartsInstance) => void | (() => void);
  onResize?: (chart: EChartsInstance) => void;
  style?: CSSProperties;
  ariaLabel?: string;
  theme?: "light" | "dark";
}) {
  const container = useRef<HTMLDivElement>(null);
  const ready = useRef(onReady);
  const resized = useRef(onResize);
  useEffect(() => {
    ready.current = onReady;
    resized.current = onResize;
  });

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    // The chart is created with the size the first observation reports, not in this effect: measuring its box here
    // (ECharts reads clientWidth and the computed style when not given a size) forced a style and layout of the page
    // just committed, with the styles antd inserted in that commit: 200 ms of the fault timeline's mount at load 17
    // (issue 21). Observations come after the browser's own layout, so their sizes cost nothing to read; every later
    // one resizes the chart to its size, again without measuring. It is created in a task of its own: the browser
    // delivers every chart's observations in one task, and a page of four trend charts was created in one of 144 ms
    // at 524,288 NPUs (issue 21: no task over 50 ms).
    let chart: EChartsInstance | null = null;
    let cleanup: void | (() => void);
    let frame = 0;
    let creating: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]!.contentRect;
      const size = { width: Math.floor(box.width), height: Math.floor(box.height) };
      if (!chart) {
        clearTimeout(creating);
        creating = setTimeout(() => {
          chart = echarts.init(element, theme === "dark" ? "dark" : undefined, { renderer: "canvas", ...size });
          cleanup = ready.current(chart);
        }, 0);
        return;
      }
      const current = chart;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        if (size.width === current.getWidth() && size.height === current.getHeight()) return;
        current.resize(size);
        resized.current?.(current);
      });
    });
    observer.observe(element);
    return () => {
      clearTimeout(creating);
      cancelAnimationFrame(frame);
      observer.disconnect();
      cleanup?.();
      chart?.dispose();
    };
  }, [theme]);

  return <div ref={container} role="img" aria-label={ariaLabel} style={{ width: "100%", height: "100%", ...style }} />;
}
