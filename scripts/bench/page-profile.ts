/**
 * One page load under the DevTools CPU profiler (Chromium over CDP), for ./topology-pages.ts: the profile is written
 * to `file`, and each busy stretch of the main thread over 50 ms (samples with no idle between them: a long task,
 * or tasks back to back) is printed with when it began after navigation, the functions that took its time (self) and
 * those it spent the most under (inclusive), so a long task is named down to the function. Built code is minified:
 * method names survive (`measureText`, `renderItem`), local function names mostly do not.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { benchBrowser, type BrowserCase } from "./browser-topology";

interface ProfileNode {
  id: number;
  parent?: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const LONG_MS = 50;

const frameName = ({ functionName, url, lineNumber, columnNumber }: ProfileNode["callFrame"]) =>
  `${functionName || "(anonymous)"}${url ? ` ${path.basename(url).slice(0, 24)}:${lineNumber + 1}:${columnNumber + 1}` : ""}`;

/**
 * The busy stretches of `profile` over LONG_MS that begin after `after` (ms since navigation), each with its top
 * functions; `origin` is navigation's time on the profile's clock (µs).
 */
export function longStretches(profile: Profile, origin: number, after: number, top = 10): string[] {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) nodes.get(child)!.parent = node.id;
  const out: string[] = [];
  let time = profile.startTime;
  let stretch: { start: number; end: number; samples: { id: number; ms: number }[] } | null = null;
  const close = () => {
    if (stretch && (stretch.end - stretch.start) / 1000 >= LONG_MS && (stretch.start - origin) / 1000 >= after) {
      const self = new Map<string, number>();
      const inclusive = new Map<string, number>();
      for (const { id, ms } of stretch.samples) {
        const leaf = nodes.get(id)!;
        self.set(frameName(leaf.callFrame), (self.get(frameName(leaf.callFrame)) ?? 0) + ms);
        const seen = new Set<string>();
        for (let node: ProfileNode | undefined = leaf; node; node = node.parent === undefined ? undefined : nodes.get(node.parent)) {
          const name = frameName(node.callFrame);
          if (seen.has(name) || name.startsWith("(root)")) continue;
          seen.add(name);
          inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
        }
      }
      const list = (map: Map<string, number>) =>
        [...map]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([name, ms]) => `    ${ms.toFixed(1).padStart(7)} ms  ${name}`)
          .join("\n");
      out.push(
        `  busy ${((stretch.end - stretch.start) / 1000).toFixed(1)} ms from ${((stretch.start - origin) / 1000).toFixed(0)} ms\n   self:\n${list(self)}\n   inclusive:\n${list(inclusive)}`,
      );
    }
    stretch = null;
  };
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    time += delta;
    const idle = nodes.get(id)!.callFrame.functionName === "(idle)";
    if (idle) return close();
    stretch ??= { start: time - delta, end: time, samples: [] };
    stretch.end = time;
    stretch.samples.push({ id, ms: delta / 1000 });
  });
  close();
  return out;
}

/** Loads `c` once under the CPU profiler, writes the profile to `file` and prints its long stretches. */
export async function profilePage(base: string, c: BrowserCase, file: string): Promise<void> {
  const { browser, context } = await benchBrowser(base);
  try {
    const page = await context.newPage();
    // A page of the same site first, so that the profiled navigation stays in the renderer the session profiles.
    await page.goto(`${base}/api/health`);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    await page.goto(base + c.path);
    await page.waitForSelector('[data-drawn="true"]', { timeout: 60_000 });
    await page.waitForTimeout(500);
    // A marker on both clocks: a function that spins 3 ms from a performance.now() it returns; its first sample
    // tells the profile's time of that instant, so of navigation.
    // (A string: tsx would wrap a named function of this file in a helper the page does not have.)
    const marked = (await page.evaluate(
      "(function benchClockMarker() { const start = performance.now(); while (performance.now() - start < 3); return start; })()",
    )) as number;
    const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: Profile };
    const hydrated = await page.evaluate(() => performance.getEntriesByName("topology:hydrated")[0]?.startTime ?? NaN);
    const markerNodes = new Set(profile.nodes.filter((node) => node.callFrame.functionName === "benchClockMarker").map((node) => node.id));
    let time = profile.startTime;
    let markerAt = NaN;
    for (const [i, id] of profile.samples.entries()) {
      time += profile.timeDeltas[i] ?? 0;
      if (markerNodes.has(id)) {
        markerAt = time;
        break;
      }
    }
    const origin = markerAt - marked * 1000;
    // DevTools opens the file as it is; `navigationAt` (µs, the profile's clock) is for reading it by time since navigation.
    await writeFile(file, JSON.stringify({ ...profile, navigationAt: origin }));
    console.log(`  profile ${file}: the busy stretches over ${LONG_MS} ms after hydration (at ${hydrated.toFixed(0)} ms)`);
    for (const line of longStretches(profile, origin, hydrated)) console.log(line);
  } finally {
    await browser.close();
  }
}
