import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EChartsInstance } from "./echart";
import { steppedDrawing, type StepEnd } from "./echart-steps";

/**
 * Stepped drawing on a chart that only says `finished` when told to (`paint`), as ECharts does once it has painted;
 * `seen` is for the steps to note what ran.
 */
function steppedOnFakeChart() {
  const listeners = new Set<() => void>();
  const chart = {
    on: (event: string, listener: () => void) => event === "finished" && listeners.add(listener),
    off: (event: string, listener: () => void) => event === "finished" && listeners.delete(listener),
  } as unknown as EChartsInstance;
  return { steps: steppedDrawing(chart), seen: [] as string[], paint: () => listeners.forEach((listener) => listener()), listening: () => listeners.size };
}

describe("steppedDrawing", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs a step that painted only after ECharts has finished, in a task of its own; a computed one in the next task", () => {
    const { steps, seen, paint } = steppedOnFakeChart();
    steps.start(
      (function* (): Generator<StepEnd, void> {
        seen.push("frame");
        yield "painted";
        seen.push("fonts");
        yield "computed";
        seen.push("cells");
        yield "painted";
        seen.push("drawn");
      })(),
    );
    expect(seen).toEqual(["frame"]);
    vi.runAllTimers();
    expect(seen).toEqual(["frame"]);
    paint();
    // Not inside ECharts' own task.
    expect(seen).toEqual(["frame"]);
    vi.advanceTimersToNextTimer();
    expect(seen).toEqual(["frame", "fonts"]);
    vi.advanceTimersToNextTimer();
    expect(seen).toEqual(["frame", "fonts", "cells"]);
    expect(steps.busy).toBe(true);
    vi.runAllTimers();
    expect(seen).toHaveLength(3);
    paint();
    vi.runAllTimers();
    expect(seen).toEqual(["frame", "fonts", "cells", "drawn"]);
    expect(steps.busy).toBe(false);
  });

  it("runs what follows a finishing step as soon as ECharts has painted it, in ECharts' own task", () => {
    const { steps, seen, paint } = steppedOnFakeChart();
    steps.start(
      (function* (): Generator<StepEnd, void> {
        seen.push("cells");
        yield "finishing";
        seen.push("drawn");
      })(),
    );
    expect(seen).toEqual(["cells"]);
    paint();
    expect(seen).toEqual(["cells", "drawn"]);
    expect(steps.busy).toBe(false);
  });

  it("ignores a `finished` while a computed step waits for its task, and drops a drawing when another starts", () => {
    const { steps, seen, paint } = steppedOnFakeChart();
    const drawing = (name: string) =>
      (function* (): Generator<StepEnd, void> {
        seen.push(`${name} 1`);
        yield "computed";
        seen.push(`${name} 2`);
        yield "painted";
        seen.push(`${name} 3`);
      })();
    steps.start(drawing("a"));
    paint();
    steps.start(drawing("b"));
    vi.runAllTimers();
    paint();
    vi.runAllTimers();
    expect(seen).toEqual(["a 1", "b 1", "b 2", "b 3"]);
  });

  it("lets a step start the drawing again, dropping the one it belongs to; dispose stops listening", () => {
    const { steps, seen, paint, listening } = steppedOnFakeChart();
    let restarts = 1;
    const drawing = (): Generator<StepEnd, void> =>
      (function* () {
        seen.push("frame");
        yield "painted" as const;
        if (restarts-- > 0) return steps.start(drawing());
        seen.push("cells");
      })();
    steps.start(drawing());
    paint();
    vi.runAllTimers();
    paint();
    vi.runAllTimers();
    expect(seen).toEqual(["frame", "frame", "cells"]);
    steps.start(drawing());
    steps.dispose();
    paint();
    vi.runAllTimers();
    expect(seen).toEqual(["frame", "frame", "cells", "frame"]);
    expect(listening()).toBe(0);
    expect(steps.busy).toBe(false);
  });
});
