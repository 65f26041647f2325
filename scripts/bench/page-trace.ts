/**
 * A Chromium trace of one page load (the DevTools timeline's categories), to name what the long tasks after hydration
 * spent outside JavaScript: a CPU profile (./page-profile.ts) shows that time only as "(program)", and it was most of
 * the fault timeline's frames at 524,288 NPUs. The trace names it: style, layout, paint, and the canvases' copies to
 * the compositor (`Canvas2DResourceProvider::ProduceCanvasResource`, per canvas a frame changed, without a GPU). The
 * trace is written to DIR/<page>.json (it opens in Chromium's DevTools, Performance panel); the summary printed is
 * each long task's busiest trace events by self time.
 */
import type { Browser, Page } from "@playwright/test";
import { openOnOrigin, writePageDiagnostic } from "./page-profile";

/** A complete ("X") trace event: what ran, on which thread, from `ts` for `dur` (µs). */
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { functionName?: string } };
}

const categories = ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel", "v8.execute", "blink", "blink.user_timing", "disabled-by-default-v8.gc"];
/** A task of the renderer's main thread: what the long-task observer measures. */
const TASK = "ThreadControllerImpl::RunTask";

/** The self time (µs) of every event inside `task`, by name (a script's function name added): events nest on a thread. */
function selfTimes(task: TraceEvent, events: TraceEvent[]): Map<string, number> {
  const end = task.ts + task.dur!;
  const inside = events.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= end).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<TraceEvent, number>(inside.map((e) => [e, e.dur!]));
  const open: TraceEvent[] = [];
  for (const event of inside) {
    while (open.length && open.at(-1)!.ts + open.at(-1)!.dur! <= event.ts) open.pop();
    const parent = open.at(-1);
    if (parent) self.set(parent, self.get(parent)! - event.dur!);
    open.push(event);
  }
  const byName = new Map<string, number>();
  for (const [event, time] of self) {
    const name = event.args?.data?.functionName ? `${event.name} ${event.args.data.functionName}` : event.name;
    byName.set(name, (byName.get(name) ?? 0) + time);
  }
  return byName;
}

/** Starts tracing `page`; call before `page.goto`. */
export async function startTrace(browser: Browser, page: Page, origin: string) {
  await openOnOrigin(page, origin);
  await browser.startTracing(page, { categories });
  return {
    /** Stops, writes the trace and answers its summary: the long tasks (over 50 ms) after the page hydrated. */
    async stop(label: string, dir: string): Promise<string> {
      const buffer = await browser.stopTracing();
      const file = await writePageDiagnostic(dir, label, "json", buffer);
      const { traceEvents } = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] };
      const hydrated = traceEvents.find((e) => e.name === "topology:hydrated");
      if (!hydrated) return `  trace ${file}: the page never marked itself hydrated`;
      const main = traceEvents.find((e) => e.name === "thread_name" && e.pid === hydrated.pid && e.args?.name === "CrRendererMain");
      const events = traceEvents.filter((e) => e.pid === hydrated.pid && e.tid === main?.tid && e.ph === "X" && e.dur !== undefined);
      const tasks = events.filter((e) => e.name === TASK && e.dur! > 50_000 && e.ts >= hydrated.ts).sort((a, b) => b.dur! - a.dur!);
      const lines = tasks.slice(0, 4).map((task) => {
        const top = [...selfTimes(task, events)].sort((a, b) => b[1] - a[1]).slice(0, 6);
        return `    ${(task.dur! / 1000).toFixed(0)} ms task: ${top.map(([name, time]) => `${name} ${(time / 1000).toFixed(0)}`).join(", ")}`;
      });
      return [`  trace ${file} (${tasks.length} tasks over 50 ms after hydration)`, ...lines].join("\n");
    },
  };
}
