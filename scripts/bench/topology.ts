/**
 * Topology speed, on a throwaway embedded PostgreSQL holding the demo (1,536 dies) and a generated 16,384-die
 * cluster (32 super pods × 32 servers × 16 dies):
 * - API: GET /api/v1/clusters/{id}/topology per level, cold (first request for an inventory revision: read the
 *   inventory, index it, lay the view out) and warm (cached per revision), and a 304 revalidation;
 * - Chromium (Debian's, at CHROMIUM_PATH): navigation → first complete drawing (`performance.mark("topology:drawn")`
 *   set on ECharts' `finished`, which fires only once the last progressive chunk is painted) of the cluster view and
 *   of a super pod view, the longest main-thread task (PerformanceObserver "longtask") while loading and while
 *   zooming through the levels of detail, and the worst run's three longest tasks with what ran in them (Long
 *   Animation Frames), so what remains over 50 ms can be named. The machine's load is printed with them: on a
 *   shared machine every browser figure grows with it.
 * It builds the app into .next-e2e (the standalone build the test runners share, scripts/production-build.ts) under
 * their lock, serves it with scripts/serve.ts, and prints medians of several runs. It never asserts timings.
 */
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import type { Page } from "@playwright/test";
import { freePort } from "@/db/embedded";
import { systemActor } from "@/db/queries/audit";
import { insertCluster } from "@/db/queries/inventory";
import { createUser } from "@/db/queries/users";
import { largeA3Cluster } from "@/lib/topology/large-cluster";
import { lockCheckout } from "../e2e-lock";
import { buildStandalone, standaloneServer } from "../production-build";
import { withDemoDatabase } from "./demo-database";
import type { BenchSection } from "./index";

const RUNS = 5;
const user = { username: "bench_viewer", password: "bench-viewer-password" };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error("the server exited before answering");
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer within 2 minutes`);
}

async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify(user),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .join("; ");
}

async function apiFigures(base: string, cookie: string, bump: (slug: string) => Promise<void>) {
  const cases = [
    { label: "demo, 1,536 dies: cluster view", slug: "atlas-a3-demo", query: "level=cluster" },
    { label: "demo, 1,536 dies: super pod view", slug: "atlas-a3-demo", query: "level=superpod&id=0" },
    { label: "demo, 1,536 dies: server view", slug: "atlas-a3-demo", query: "level=server&id=sp0-node00" },
    { label: "16,384 dies: cluster view", slug: "atlas-a3-large", query: "level=cluster" },
    { label: "16,384 dies: super pod view", slug: "atlas-a3-large", query: "level=superpod&id=pod-0" },
    { label: "16,384 dies: server view", slug: "atlas-a3-large", query: "level=server&id=p0-s000" },
  ];
  const rows: string[][] = [];
  for (const c of cases) {
    const url = `${base}/api/v1/clusters/${c.slug}/topology?${c.query}`;
    const cold: number[] = [];
    const warm: number[] = [];
    const revalidate: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      await bump(c.slug); // a new inventory revision: nothing cached
      let start = performance.now();
      const first = await fetch(url, { headers: { cookie } });
      const body = await first.arrayBuffer();
      cold.push(performance.now() - start);
      bytes = body.byteLength;
      start = performance.now();
      await (await fetch(url, { headers: { cookie } })).arrayBuffer();
      warm.push(performance.now() - start);
      start = performance.now();
      const notModified = await fetch(url, { headers: { cookie, "if-none-match": first.headers.get("etag") ?? "" } });
      if (notModified.status !== 304) throw new Error(`expected 304, got ${notModified.status}`);
      revalidate.push(performance.now() - start);
    }
    rows.push([c.label, ms(median(cold)), ms(median(warm)), ms(median(revalidate)), `${(bytes / 1024).toFixed(0)} KiB`]);
  }
  console.log("| API request | cold (new revision) | warm | 304 | body |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
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

async function browserFigures(base: string) {
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const signed = await context.request.post(`${base}/api/auth/sign-in`, { data: user, headers: { origin: base } });
  if (!signed.ok()) throw new Error(`sign-in answered ${signed.status()}`);
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
  const cases = [
    { label: "demo (1,536 dies): cluster view", path: "/topology?cluster=atlas-a3-demo" },
    { label: "demo (1,536 dies): super pod view", path: "/topology?cluster=atlas-a3-demo&level=superpod&id=0" },
    { label: "16,384 dies: cluster view", path: "/topology?cluster=atlas-a3-large" },
    { label: "16,384 dies: super pod view", path: "/topology?cluster=atlas-a3-large&level=superpod&id=pod-0" },
  ];
  const rows: string[][] = [];
  const worst: string[] = [];
  const loadBefore = os.loadavg()[0]!;
  /** The page's long tasks since the last call, longest first, each with what ran in it. */
  const takeTasks = (page: Page) =>
    page.evaluate(() => {
      const w = window as typeof window & BenchWindow;
      const taken = { tasks: w.__longTasks, frames: w.__frames };
      w.__longTasks = [];
      w.__frames = [];
      return taken;
    });
  for (const c of cases) {
    const drawnAt: number[] = [];
    const loadTasks: AttributedTask[][] = [];
    /** Per run, the longest load task that started once the page had hydrated: the topology's own work. */
    const ownLoad: number[] = [];
    const zoomTasks: AttributedTask[][] = [];
    for (let i = 0; i < RUNS; i++) {
      const page = await context.newPage();
      await page.goto(base + c.path);
      await page.waitForSelector('[data-drawn="true"]', { timeout: 60_000 });
      await page.waitForTimeout(300);
      drawnAt.push(await page.evaluate(() => performance.getEntriesByName("topology:drawn")[0]?.startTime ?? NaN));
      const hydratedAt = await page.evaluate(() => performance.getEntriesByName("topology:hydrated")[0]?.startTime ?? 0);
      const tasks = attribute(await takeTasks(page));
      loadTasks.push(tasks);
      ownLoad.push(tasks.find((task) => task.start >= hydratedAt)?.duration ?? 0);
      // Zoom in through the levels of detail and back out, as an operator would with the wheel.
      const canvas = (await page.locator("canvas").first().boundingBox())!;
      await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
      for (const delta of [-400, -400, -400, -400, 400, 400, 400, 400]) {
        await page.mouse.wheel(0, delta);
        await page.waitForTimeout(120);
      }
      await page.waitForTimeout(300);
      zoomTasks.push(attribute(await takeTasks(page)));
      await page.close();
    }
    const longest = (runs: AttributedTask[][]) => runs.map((tasks) => tasks[0]?.duration ?? 0);
    const load = longest(loadTasks);
    const zoom = longest(zoomTasks);
    rows.push([
      c.label,
      ms(median(drawnAt)),
      `${ms(median(load))} / ${ms(Math.max(...load))}`,
      `${ms(median(ownLoad))} / ${ms(Math.max(...ownLoad))}`,
      `${ms(median(zoom))} / ${ms(Math.max(...zoom))}`,
    ]);
    // The run with the longest task, its three longest tasks: what is left to split.
    const top = [...loadTasks, ...zoomTasks].reduce((a, b) => ((b[0]?.duration ?? 0) > (a[0]?.duration ?? 0) ? b : a), []);
    worst.push(`- ${c.label}: ${top.length === 0 ? "no task over 50 ms" : top.slice(0, 3).map((task) => `${ms(task.duration)} at ${task.start.toFixed(0)} ms (${task.what})`).join("; ")}`);
  }
  await browser.close();
  console.log(`\nLoad average (1 min) on ${os.cpus().length} CPUs: ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after the browser runs.`);
  console.log(
    `\n| Chromium (${RUNS} runs) | navigation → drawn (median) | longest main-thread task while loading (median / max) | of those, the longest after hydration: fetching, layout, drawing (median / max) | longest task while zooming (median / max) |`,
  );
  console.log("| --- | --- | --- | --- | --- |");
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  console.log("\nLongest tasks of the worst run (start after navigation; what ran in them, from Long Animation Frames):");
  for (const line of worst) console.log(line);
}

async function runTopologyBench(): Promise<void> {
  const release = await lockCheckout();
  try {
    await withDemoDatabase(2, async ({ handle, server: postgres }) => {
      await insertCluster(handle.db, largeA3Cluster(32, 32));
      await createUser(handle.db, { ...user, role: "viewer" }, systemActor);
      const bump = async (slug: string) => {
        await handle.pool.query("update clusters set inventory_revision = inventory_revision + 1 where slug = $1", [slug]);
      };

      console.log("building the app into .next-e2e …");
      if ((await buildStandalone({ typecheck: false })) !== 0) throw new Error("next build failed");
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const server = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", "start"], {
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, RANKSCOPE_STANDALONE_SERVER: standaloneServer, NEXT_TELEMETRY_DISABLED: "1", PORT: String(port), DATABASE_URL: postgres.url() },
      });
      try {
        await waitFor(`${base}/api/health`, server);
        await apiFigures(base, await signIn(base), bump);
        await browserFigures(base);
      } finally {
        server.kill("SIGTERM");
      }
    });
  } finally {
    release();
  }
}

export const topologyBench: BenchSection = {
  name: "topology",
  description: "topology API per level (1,536 and 16,384 dies) and Chromium first drawing and longest task",
  run: runTopologyBench,
};
