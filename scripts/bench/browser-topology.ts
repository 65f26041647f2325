/**
 * The topology page in Chromium, shared by the topology and scale benches: the app built into .next-e2e and served
 * (startApp, ./bench-app.ts), and per page (measureTopologyPages) the time from navigation to the first complete drawing
 * (`performance.mark("topology:drawn")`, set on ECharts' `finished`, which fires only once the last progressive chunk
 * is painted), the longest main-thread task (PerformanceObserver "longtask") while loading, the longest once the page
 * had hydrated (`topology:hydrated`; a page without the mark counts every task), the longest while zooming through
 * the levels of detail, and the worst run's three longest counted tasks (after hydration, or while zooming) with what
 * ran in them (Long Animation Frames), so what remains over 50 ms can be named. It never asserts timings.
 */
import type { Page } from "@playwright/test";
import { benchBrowser } from "./bench-app";
import { startProfile } from "./page-profile";
import { startTrace } from "./page-trace";
import { median } from "./percentiles";

export const BROWSER_RUNS = 5;
export const ms = (value: number) => `${value.toFixed(1)} ms`;

export interface BrowserCase {
  label: string;
  path: string;
  /**
   * Selectors of the page's other sections: the load is measured until each is on the page too (the job page's
   * sections answer after its topology is drawn, and their renders are long tasks of the load as well).
   */
  settled?: string[];
  /** What marks the page drawn when it has no topology (`[data-drawn="true"]`); such a page is not zoomed. */
  drawn?: string;
}
/** Per page, over the runs: medians and maxima (ms), and the worst run's longest tasks in words. */
export interface BrowserFigure {
  label: string;
  drawn: number;
  /** Navigation → every `settled` selector on the page (median; `drawn` when the case has none). */
  settled: number;
  load: number;
  loadMax: number;
  /** The longest task once the page had hydrated: the topology's own fetching, layout and drawing. */
  own: number;
  ownMax: number;
  zoom: number;
  zoomMax: number;
  worst: string;
  /**
   * With `options.profile`: where the last run's long tasks after hydration and while zooming spent their time
   * (./page-profile.ts); with `options.trace`: what they ran outside JavaScript too, from a trace of the run before it
   * (./page-trace.ts).
   */
  profile: string;
}

/** What the page's observers collected (see the init script in browserFigures). */
interface BenchWindow {
  __longTasks: { start: number; duration: number }[];
  __frames: { start: number; duration: number; renderStart: number; scripts: { start: number; duration: number; what: string }[] }[];
}
/** The fields of a PerformanceLongAnimationFrameTiming that the bench reads (not in TypeScript's DOM types yet). */
interface LoafEntry {
  startTime: number;
  duration: number;
  renderStart: number;
  scripts: { startTime: number; duration: number; invokerType: string; invoker: string; sourceURL: string; sourceFunctionName: string }[];
}
interface AttributedTask {
  start: number;
  duration: number;
  what: string;
}

/**
 * Names what ran in each long task: the scripts of the animation frames that overlap it (longest first), the
 * frame's style and layout when it ran inside the task, and what is left (parsing HTML, compiling, GC…) as "other".
 */
function attribute({ tasks, frames }: { tasks: BenchWindow["__longTasks"]; frames: BenchWindow["__frames"] }): AttributedTask[] {
  return tasks
    .map((task) => {
      const end = task.start + task.duration;
      const scripts = frames.flatMap((frame) => frame.scripts).filter((script) => script.start >= task.start - 1 && script.start < end);
      const parts = scripts.sort((a, b) => b.duration - a.duration).map((script) => `${script.what} ${script.duration.toFixed(0)}`);
      const frame = frames.find((f) => f.renderStart >= task.start && f.renderStart < end);
      const render = frame ? Math.min(end, frame.start + frame.duration) - frame.renderStart : 0;
      if (render > 1) parts.push(`rendering ${render.toFixed(0)}`);
      const other = task.duration - render - scripts.reduce((sum, script) => sum + script.duration, 0);
      if (other > 5) parts.push(`other ${other.toFixed(0)}`);
      return { ...task, what: parts.slice(0, 4).join(", ") };
    })
    .sort((a, b) => b.duration - a.duration);
}

/** Opens each page `runs` times in Chromium and measures it (see the file's comment). */
export async function measureTopologyPages(base: string, cases: BrowserCase[], runs = BROWSER_RUNS, options: { profile?: string; trace?: string } = {}): Promise<BrowserFigure[]> {
  const { browser, context } = await benchBrowser(base);
  try {
    // Long tasks are what the figure is about; Long Animation Frames only say what ran in them (script, function,
    // invoker), so the report can name what remains. Every long task is counted, attributed or not.
    await context.addInitScript(() => {
      const w = window as typeof window & BenchWindow;
      w.__longTasks = [];
      w.__frames = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__longTasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: "longtask", buffered: true });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as LoafEntry[]) {
          w.__frames.push({
            start: entry.startTime,
            duration: entry.duration,
            renderStart: entry.renderStart,
            scripts: entry.scripts.map((script) => ({
              start: script.startTime,
              duration: script.duration,
              what: `${script.invokerType} ${script.invoker || ""} ${(script.sourceURL || "").split("/").pop() || ""}${script.sourceFunctionName ? ` ${script.sourceFunctionName}` : ""}`.replace(/\s+/g, " ").trim(),
            })),
          });
        }
      }).observe({ type: "long-animation-frame", buffered: true });
    });
    /** The page's long tasks since the last call, longest first, each with what ran in it. */
    const takeTasks = (page: Page) =>
      page.evaluate(() => {
        const w = window as typeof window & BenchWindow;
        const taken = { tasks: w.__longTasks, frames: w.__frames };
        w.__longTasks = [];
        w.__frames = [];
        return taken;
      });
    const figures: BrowserFigure[] = [];
    for (const c of cases) {
      const drawnAt: number[] = [];
      const settledAt: number[] = [];
      const loadTasks: AttributedTask[][] = [];
      /** Per run, the load's tasks that started once the page had hydrated: the topology's own work, which is counted. */
      const ownTasks: AttributedTask[][] = [];
      const zoomTasks: AttributedTask[][] = [];
      const profiles: string[] = [];
      for (let i = 0; i < runs; i++) {
        const page = await context.newPage();
        const profiling = options.profile && i === runs - 1 ? await startProfile(page, base) : null;
        // Traced on a run of its own: the profiler's sampling would be in the trace's tasks.
        const tracing = options.trace && i === Math.max(0, runs - (options.profile ? 2 : 1)) ? await startTrace(browser, page, base) : null;
        await page.goto(base + c.path);
        await page.waitForSelector(c.drawn ?? '[data-drawn="true"]', { timeout: 60_000 });
        const drawn = await page.evaluate(() => performance.now());
        for (const selector of c.settled ?? []) await page.waitForSelector(selector, { timeout: 60_000 });
        const settled = await page.evaluate(() => performance.now());
        await page.waitForTimeout(300);
        drawnAt.push(c.drawn ? drawn : await page.evaluate(() => performance.getEntriesByName("topology:drawn")[0]?.startTime ?? NaN));
        settledAt.push(c.settled?.length ? settled : drawnAt.at(-1)!);
        const hydratedAt = await page.evaluate(() => performance.getEntriesByName("topology:hydrated")[0]?.startTime ?? 0);
        const taken = await takeTasks(page);
        const tasks = attribute(taken);
        loadTasks.push(tasks);
        ownTasks.push(tasks.filter((task) => task.start >= hydratedAt));
        const profiled = taken.tasks.filter((task) => task.start >= hydratedAt);
        if (!c.drawn) {
          // Zoom in through the levels of detail and back out, as an operator would with the wheel.
          const canvas = (await page.locator("canvas").first().boundingBox())!;
          await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
          for (const delta of [-400, -400, -400, -400, 400, 400, 400, 400]) {
            await page.mouse.wheel(0, delta);
            await page.waitForTimeout(120);
          }
          await page.waitForTimeout(300);
          const zoomed = await takeTasks(page);
          zoomTasks.push(attribute(zoomed));
          profiled.push(...zoomed.tasks);
        }
        // The diagnostics cover the zoom too: its tasks are counted as the load's are.
        if (profiling) profiles.push(await profiling.stop(c.label, profiled, options.profile!));
        if (tracing) profiles.push(await tracing.stop(c.label, options.trace!));
        await page.close();
      }
      const longest = (runs: AttributedTask[][]) => runs.map((tasks) => tasks[0]?.duration ?? 0);
      const load = longest(loadTasks);
      const ownLoad = longest(ownTasks);
      const zoom = zoomTasks.length ? longest(zoomTasks) : [0];
      // The run with the longest counted task (after hydration, or a zoom's), its three longest: what is left to split.
      const top = [...ownTasks, ...zoomTasks].reduce((a, b) => ((b[0]?.duration ?? 0) > (a[0]?.duration ?? 0) ? b : a), []);
      figures.push({
        label: c.label,
        drawn: median(drawnAt),
        settled: median(settledAt),
        load: median(load),
        loadMax: Math.max(...load),
        own: median(ownLoad),
        ownMax: Math.max(...ownLoad),
        zoom: median(zoom),
        zoomMax: Math.max(...zoom),
        worst: top.length === 0 ? "no task over 50 ms" : top.slice(0, 3).map((task) => `${ms(task.duration)} at ${task.start.toFixed(0)} ms (${task.what})`).join("; "),
        profile: profiles.join("\n"),
      });
    }
    return figures;
  } finally {
    await browser.close();
  }
}

/** The figures as the topology bench prints them: one table, then the worst runs' longest tasks. */
export function printBrowserFigures(figures: BrowserFigure[], runs = BROWSER_RUNS): void {
  console.log(
    `\n| Chromium (${runs} runs) | navigation → drawn (median) | longest main-thread task while loading (median / max) | of those, the longest after hydration: fetching, layout, drawing (median / max) | longest task while zooming (median / max) |`,
  );
  console.log("| --- | --- | --- | --- | --- |");
  for (const f of figures) console.log(`| ${f.label} | ${ms(f.drawn)} | ${ms(f.load)} / ${ms(f.loadMax)} | ${ms(f.own)} / ${ms(f.ownMax)} | ${ms(f.zoom)} / ${ms(f.zoomMax)} |`);
  console.log("\nLongest tasks of the worst run (start after navigation; what ran in them, from Long Animation Frames):");
  for (const f of figures) console.log(`- ${f.label}: ${f.worst}`);
}
