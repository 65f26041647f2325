/**
 * Main-thread long tasks in a page (PerformanceObserver "longtask"), and how a spec judges them: a task's length only
 * means something when the browser had a core, so on a machine running more than a process per core (the shared
 * 2-core machine under other builds) they are attached and annotated, not judged.
 */
import os from "node:os";
import { expect, type Page, type TestInfo } from "@playwright/test";

export interface LongTask {
  start: number;
  duration: number;
}

interface LongTaskWindow {
  __longTasks: LongTask[];
}

/** Collects every long task of the page, from the first document on. */
export async function observeLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as typeof window & LongTaskWindow;
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: "longtask", buffered: true });
  });
}

/** The long tasks that began after the performance mark `mark` (none before it is set), longest first; taken, so the next call returns only newer ones. */
export async function takeLongTasks(page: Page, mark: string): Promise<LongTask[]> {
  return page.evaluate((name) => {
    const w = window as typeof window & LongTaskWindow;
    const since = performance.getEntriesByName(name)[0]?.startTime ?? Infinity;
    const tasks = w.__longTasks.filter((task) => task.start >= since).sort((a, b) => b.duration - a.duration);
    w.__longTasks = [];
    return tasks;
  }, mark);
}

/** Expects no task over 50 ms when the machine had a core per process; otherwise attaches them with the load. */
export function judgeLongTasks(testInfo: TestInfo, tasks: LongTask[], what: string): void {
  const load = os.loadavg()[0]! / os.cpus().length;
  if (load > 1) {
    const longest = Math.max(0, ...tasks.map((task) => task.duration));
    testInfo.annotations.push({ type: "long tasks not judged", description: `load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores; longest ${longest} ms, ${tasks.filter((task) => task.duration > 50).length} over 50 ms` });
  } else {
    expect(tasks.filter((task) => task.duration > 50), what).toEqual([]);
  }
}
