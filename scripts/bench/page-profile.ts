/**
 * A V8 CPU profile of one page load in Chromium (the DevTools protocol's Profiler), to name what the long tasks after
 * hydration ran: Long Animation Frames only name the task's entry point (a timer, a message port), while React
 * renders every component of a commit inside it. The profile is written to DIR/<page>.cpuprofile with the tasks'
 * windows in its own clock (`longTasks`, µs), so it opens in Chromium's DevTools or is read against the bundles'
 * source maps (a build with RANKSCOPE_SOURCE_MAPS=1, next.config.ts); the summary printed is each task's busiest
 * functions by self time, as the bundle names them (minified, with their bundle file and line:column).
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "@playwright/test";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Writes a page load's diagnostic (a profile, a trace) to DIR/<label>.<extension>, and answers its path. */
export async function writePageDiagnostic(dir: string, label: string, extension: string, contents: string | Buffer): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${label.replace(/[^\w.-]+/g, "_")}.${extension}`);
  await writeFile(file, contents);
  return file;
}

/**
 * Takes `page` to the app's origin before a diagnostic starts, so the navigation measured stays in the same renderer
 * process (and so in the profiler's isolate, or the trace's process).
 */
export async function openOnOrigin(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/api/health`);
}

const where = ({ functionName, url, lineNumber, columnNumber }: ProfileNode["callFrame"]) =>
  `${functionName || "(anonymous)"} ${url ? `${url.split("/").pop()}:${lineNumber + 1}:${columnNumber + 1}` : ""}`.trim();

/** Starts profiling `page` (sampling every 100 µs); call before `page.goto`. */
export async function startProfile(page: Page, origin: string) {
  await openOnOrigin(page, origin);
  const session = await page.context().newCDPSession(page);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 100 });
  await session.send("Profiler.start");
  return {
    /** Stops, writes the profile and answers its summary over `tasks` (page times, ms). */
    async stop(label: string, tasks: { start: number; duration: number }[], dir: string): Promise<string> {
      const pageNow = await page.evaluate(() => performance.now());
      const { profile } = (await session.send("Profiler.stop")) as { profile: CpuProfile };
      await session.detach();
      // The profile's clock (µs) against the page's performance.now() (ms), read together at the stop.
      const offset = profile.endTime - pageNow * 1000;
      const windows = tasks.map((task) => ({ start: task.start * 1000 + offset, end: (task.start + task.duration) * 1000 + offset, duration: task.duration }));
      const file = await writePageDiagnostic(dir, label, "cpuprofile", JSON.stringify({ ...profile, longTasks: windows }));
      const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
      const selfTime = windows.map(() => new Map<string, number>());
      let at = profile.startTime;
      profile.samples.forEach((id, i) => {
        at += profile.timeDeltas[i]!;
        const k = windows.findIndex((w) => at >= w.start && at < w.end);
        if (k < 0) return;
        const name = where(nodes.get(id)!.callFrame);
        const next = profile.timeDeltas[i + 1] ?? 0;
        selfTime[k]!.set(name, (selfTime[k]!.get(name) ?? 0) + next / 1000);
      });
      const lines = windows
        .map((w, k) => ({ w, top: [...selfTime[k]!].sort((a, b) => b[1] - a[1]).slice(0, 6) }))
        .sort((a, b) => b.w.duration - a.w.duration)
        .slice(0, 4)
        .map(({ w, top }) => `    ${w.duration.toFixed(0)} ms task: ${top.map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(", ")}`);
      return [`  profile ${file}`, ...lines].join("\n");
    },
  };
}
