"use client";

import { BarChart, LineChart } from "echarts/charts";
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { EChart, type EChartsInstance } from "@/components/primitives/echart";
import { steppedDrawing, type StepEnd } from "@/components/primitives/echart-steps";
import { useThemeControl } from "@/components/providers/app-providers";
import { timelineLink } from "@/lib/faults/report-url";
import type { TrendChart as Chart } from "./chart-options";

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, AriaComponent]);

/** True while the page is printed (or saved as PDF): charts are drawn light then, whatever the console's theme. */
export function usePrinting(): boolean {
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    const media = window.matchMedia("print");
    const on = () => setPrinting(true);
    const off = () => setPrinting(media.matches);
    const change = () => setPrinting(media.matches);
    window.addEventListener("beforeprint", on);
    window.addEventListener("afterprint", off);
    media.addEventListener("change", change);
    return () => {
      window.removeEventListener("beforeprint", on);
      window.removeEventListener("afterprint", off);
      media.removeEventListener("change", change);
    };
  }, []);
  return printing;
}

/** Each series of an option as it is, without its data. */
function withoutData(series: unknown): unknown {
  return Array.isArray(series) ? series.map((one: Record<string, unknown>) => ({ ...one, data: [] })) : series;
}

/** A trend chart: a click on a bar or point opens the timeline of that bucket or offender, filtered to it. */
export function TrendChart({ chart, cluster, label, height = 260, testId }: { chart: Chart; cluster: string; label: string; height?: number; testId?: string }) {
  const router = useRouter();
  const { theme } = useThemeControl();
  const printing = usePrinting();
  const instance = useRef<EChartsInstance | null>(null);
  const current = useRef(chart);
  useEffect(() => {
    current.current = chart;
    instance.current?.setOption(chart.option, { notMerge: true });
  }, [chart]);
  return (
    <div className="report-chart" data-testid={testId} style={{ height }}>
      <EChart
        ariaLabel={label}
        theme={printing ? "light" : theme}
        onReady={(c) => {
          // Drawn in three steps, each a task of its own: the axes; the legend and the empty series; their data.
          // In one step, a chart's first drawing was a task of 60-120 ms at 524,288 NPUs on 2 cores (issue 21: no task
          // over 50 ms). Each is set, laid out and painted at once: left to the next animation frame (lazily), the
          // page's charts were all painted in the same frame, one task of 170-240 ms. Later charts (another period)
          // are set whole.
          const steps = steppedDrawing(c);
          const first = current.current.option;
          steps.start(
            (function* (): Generator<StepEnd, void> {
              const { series, legend, ...frame } = first;
              c.setOption(frame, { notMerge: true });
              yield "computed";
              c.setOption({ legend, series: withoutData(series) });
              yield "computed";
              const latest = current.current.option;
              if (latest === first) c.setOption({ series: first.series });
              else c.setOption(latest, { notMerge: true });
              instance.current = c;
            })(),
          );
          const click = (params: { seriesName?: string; dataIndex?: number }) => {
            const target = current.current.target(params.seriesName ?? "", params.dataIndex ?? -1);
            if (target) router.push(timelineLink(cluster, target));
          };
          c.on("click", click);
          return () => {
            steps.dispose();
            c.off("click", click);
            instance.current = null;
          };
        }}
      />
    </div>
  );
}
