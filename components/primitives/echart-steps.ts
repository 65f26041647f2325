import type { EChartsInstance } from "./echart";

/**
 * How a drawing's step ended: it set something ECharts is to paint (lazily, in the next animation frame), so the next
 * step waits until ECharts reports it `finished` and runs in a task of its own; it set the last of the drawing
 * ("finishing"), so what follows (marking it drawn) runs as soon as ECharts reports it `finished`, in ECharts' own
 * task, and must be short; or it only computed (a canvas allocated, a font measured), so the next step runs in the
 * next task.
 */
export type StepEnd = "painted" | "finishing" | "computed";

/** A drawing in steps: each `yield` ends one, saying what the next waits for. */
export type Drawing = Iterator<StepEnd, void>;

export interface SteppedDrawing {
  /** Starts a drawing, dropping one under way; its first step runs now. */
  start(drawing: Drawing): void;
  /** True while a drawing has steps left to run. */
  readonly busy: boolean;
  /** Drops the drawing under way and stops listening to the chart. */
  dispose(): void;
}

/**
 * Runs a chart's drawings in steps, each in a task of its own once the one before is on the canvas: ECharts lays out
 * and paints a whole option in one task, and a chart's first drawing at 524,288 NPUs (16k cells, 5,000 events, a
 * page of trend charts) was a task of 80–140 ms on 2 cores (issue 21: no task over 50 ms after hydration). A step may
 * start another drawing (what it draws changed meanwhile): the one it belongs to is then dropped.
 */
export function steppedDrawing(chart: EChartsInstance): SteppedDrawing {
  let drawing: Drawing | null = null;
  let awaiting: StepEnd | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const next = () => {
    const current = drawing;
    if (!current) return;
    const step = current.next();
    // The step started another drawing, which runs on its own.
    if (drawing !== current) return;
    if (step.done) {
      drawing = null;
      return;
    }
    awaiting = step.value;
    if (awaiting === "computed") timer = setTimeout(next, 0);
  };
  const painted = () => {
    if (!drawing || awaiting === null || awaiting === "computed") return;
    const finishing = awaiting === "finishing";
    awaiting = null;
    clearTimeout(timer);
    if (finishing) next();
    else timer = setTimeout(next, 0);
  };
  chart.on("finished", painted);

  return {
    start(started) {
      clearTimeout(timer);
      drawing = started;
      awaiting = null;
      next();
    },
    get busy() {
      return drawing !== null;
    },
    dispose() {
      clearTimeout(timer);
      drawing = null;
      chart.off("finished", painted);
    },
  };
}
