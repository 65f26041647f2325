"use client";

import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useEffect, useRef, type CSSProperties } from "react";

// Tree-shaken ECharts: the canvas renderer here; each chart registers the series and components it draws with.
echarts.use([CanvasRenderer]);

export type EChartsInstance = echarts.ECharts;
export type EChartsOption = echarts.EChartsCoreOption;

/**
 * A minimal React wrapper for ECharts: creates the chart once, hands the instance to `onReady` (to set options and
 * listen to events), resizes it with its container and disposes of it on unmount.
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
    const chart = echarts.init(element, theme === "dark" ? "dark" : undefined, { renderer: "canvas" });
    const cleanup = ready.current(chart);
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        // The observer also reports the size the chart was created with: nothing to redraw then.
        if (element.clientWidth === chart.getWidth() && element.clientHeight === chart.getHeight()) return;
        chart.resize();
        resized.current?.(chart);
      });
    });
    observer.observe(element);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      cleanup?.();
      chart.dispose();
    };
  }, [theme]);

  return <div ref={container} role="img" aria-label={ariaLabel} style={{ width: "100%", height: "100%", ...style }} />;
}
