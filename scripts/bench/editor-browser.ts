/**
 * `npm run bench -- editor-browser`: the editor opening a generated "2.0" table from a file in Chromium (issue 21
 * item 3: 524,288 ranks in under 10 s), through the worker path (components/rank-tables/hosted-table.ts). Serves the
 * existing production build in .next-e2e (`npx tsx scripts/production-build.ts`, or an e2e run, makes it; set
 * RANKSCOPE_BENCH_BUILD=1 to build first) on a throwaway embedded database. Per size: file chosen → first grid rows,
 * → validation report shown; the page's main-thread task time over the open (CDP Performance.getMetrics
 * TaskDuration) and its long tasks from the file chosen on, each with its step (open, until the report, after it,
 * the scroll to the middle); the CPU of Chromium's threads to the first rows and to the report (proc-stats.ts
 * chromiumThreads: the page's main thread, each worker, the collector's helpers, the other processes); the load
 * average beside every figure.
 * RANKSCOPE_BENCH_EDITOR_SIZES picks the sizes (default 16384,131072,524288).
 * RANKSCOPE_BENCH_EDITOR_FROM=saved opens a saved revision instead: the table is created through POST
 * /rank-tables/text (stored gzipped), then its page is opened, and the worker reads GET …/text as it arrives; the
 * figures are then from the navigation, with the peak RSS of the browser (its largest process, the page's with its
 * worker, and all of them) and of the server over the open.
 */
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { Readable } from "node:stream";
import os from "node:os";
import path from "node:path";
import { systemActor } from "@/db/queries/audit";
import { createUser } from "@/db/queries/users";
import { generateA5Table, type JsonValue } from "@/lib/rank-table";
import { writeRankTableParts } from "@/lib/rank-table/write-parts";
import { lockCheckout } from "../e2e-lock";
import { chromiumCpuSince, chromiumThreads } from "../proc-stats";
import { buildStandalone, standaloneServer } from "../production-build";
import { serveApp } from "./bench-app";
import { withDemoDatabase } from "./demo-database";
import type { BenchSection } from "./index";

const user = { username: "bench_editor", password: "bench-editor-password" };
const load = () => `load ${os.loadavg()[0]!.toFixed(1)}`;

/** Writes the table's canonical text part by part: at 524,288 ranks it is longer than a string can be. */
async function writeTable(ranks: number): Promise<{ file: string; bytes: number }> {
  const file = path.join(os.tmpdir(), `rankscope-bench-editor-${ranks}.json`);
  const parts = writeRankTableParts(generateA5Table({ racks: ranks / 64, npusPerRack: 64 }) as unknown as JsonValue);
  const out = createWriteStream(file);
  let bytes = 0;
  for (const part of parts) {
    bytes += Buffer.byteLength(part);
    if (!out.write(part)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { file, bytes };
}

/** The resident memory of a process and its descendants: the largest one's and their sum, in bytes. */
async function treeRss(pid: number): Promise<{ largest: number; total: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const own = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, "utf8").catch(() => "")).split(" ").filter(Boolean).map(Number);
  const below = await Promise.all(children.map(treeRss));
  return { largest: Math.max(own, ...below.map((tree) => tree.largest)), total: below.reduce((sum, tree) => sum + tree.total, own) };
}

/** The browser Playwright launched: this process's child that runs Chromium. */
async function browserPid(): Promise<number> {
  const children = (await readFile(`/proc/${process.pid}/task/${process.pid}/children`, "utf8")).split(" ").filter(Boolean).map(Number);
  for (const pid of children) if (/chrom/i.test(await readFile(`/proc/${pid}/comm`, "utf8").catch(() => ""))) return pid;
  throw new Error("no Chromium process among this process's children");
}

/** Samples treeRss of each pid until stopped: the peaks. */
function peakRss(pids: number[]) {
  const peaks = pids.map(() => ({ largest: 0, total: 0 }));
  const sample = async () => {
    const trees = await Promise.all(pids.map(treeRss));
    trees.forEach((tree, index) => {
      peaks[index]!.largest = Math.max(peaks[index]!.largest, tree.largest);
      peaks[index]!.total = Math.max(peaks[index]!.total, tree.total);
    });
  };
  const timer = setInterval(() => void sample(), 250);
  return async () => {
    clearInterval(timer);
    await sample();
    return peaks;
  };
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** Creates the table from the file through the streamed route as the signed-in browser would: its id. */
async function saveStreamed(base: string, cookie: string, file: string, ranks: number): Promise<number> {
  const started = Date.now();
  const response = await fetch(`${base}/api/v1/rank-tables/text?name=bench-${ranks}`, {
    method: "POST",
    headers: { cookie, origin: base, "content-type": "application/json" },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit);
  if (response.status !== 201) throw new Error(`the streamed create answered ${response.status}: ${await response.text()}`);
  console.log(`  saved through POST /rank-tables/text in ${((Date.now() - started) / 1000).toFixed(1)} s (${load()})`);
  // The save's worker (its 1.4 GB heap) ends after 5 s idle: the server's peak over the open is then the open's own.
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  return ((await response.json()) as { id: number }).id;
}

async function openInBrowser(base: string, serverPid: number, ranks: number): Promise<void> {
  const { file, bytes } = await writeTable(ranks);
  const fromSaved = process.env.RANKSCOPE_BENCH_EDITOR_FROM === "saved";
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  try {
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    const signed = await context.request.post(`${base}/api/auth/sign-in`, { data: user, headers: { origin: base } });
    if (!signed.ok()) throw new Error(`sign-in answered ${signed.status()}`);
    await context.addInitScript(() => {
      const w = window as typeof window & { __longTasks: { start: number; duration: number }[] };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__longTasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: "longtask", buffered: true });
    });
    const page = await context.newPage();
    page.setDefaultTimeout(600_000);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const taskSeconds = async () => ((await cdp.send("Performance.getMetrics")).metrics.find((metric) => metric.name === "TaskDuration")?.value ?? 0);
    const savedId = fromSaved ? await saveStreamed(base, (await context.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join("; "), file, ranks) : undefined;
    const input = page.locator('input[type="file"]').first();
    if (savedId === undefined) {
      await page.goto(`${base}/rank-tables/new`);
      await input.waitFor({ state: "attached" });
    } else await page.goto(`${base}/`);
    // RANKSCOPE_BENCH_PROFILE=1: what the main thread ran from the file chosen to the report (top self times).
    const profiling = process.env.RANKSCOPE_BENCH_PROFILE === "1";
    if (profiling) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.start");
    }
    // RANKSCOPE_BENCH_TRACE=DIR: a Chromium trace of the same span (DIR/editor-<ranks>.json, for chrome://tracing).
    const tracing = process.env.RANKSCOPE_BENCH_TRACE;
    if (tracing) await browser.startTracing(page, { path: path.join(tracing, `editor-${ranks}.json`), categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "blink.user_timing"] });
    const tasksBefore = await taskSeconds();
    const cpuBefore = await chromiumThreads(process.pid);
    const peaks = peakRss([await browserPid(), serverPid]);
    const started = Date.now();
    if (savedId === undefined) await input.setInputFiles(file);
    else await page.goto(`${base}/rank-tables/${savedId}`, { waitUntil: "commit" });
    // Long tasks are judged from the file chosen, or from the saved table's page loaded.
    const chosenAt = await page.evaluate(() => performance.now()).catch(() => 0);
    const firstCell = page.locator('[data-cell="r0:rank_id"]');
    await firstCell.waitFor();
    const drawn = Date.now() - started;
    const drawnAt = await page.evaluate(() => performance.now());
    const tasksAtDrawn = await taskSeconds();
    const cpuAtDrawn = await chromiumCpuSince(process.pid, cpuBefore);
    await page.getByRole("status", { name: "Validation report" }).filter({ hasText: /Valid|error/ }).waitFor();
    const reported = Date.now() - started;
    const reportedAt = await page.evaluate(() => performance.now());
    const tasksAtReport = await taskSeconds();
    const cpuAtReport = await chromiumCpuSince(process.pid, cpuBefore);
    const [browserPeak, serverPeak] = await peaks();
    if (profiling) {
      const { profile } = await cdp.send("Profiler.stop");
      const self = new Map<string, number>();
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      profile.samples?.forEach((id, index) => {
        const frame = byId.get(id)!.callFrame;
        const key = `${frame.functionName || "(anonymous)"} ${frame.url.split("/").pop()}:${frame.lineNumber}`;
        self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[index] ?? 0));
      });
      for (const [key, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`    ${(micros / 1000).toFixed(0)} ms ${key}`);
    }
    if (tracing) await browser.stopTracing();
    // A scroll to the middle: the rows there are fetched from the worker.
    const scrollStart = Date.now();
    const scrolledAt = await page.evaluate(() => performance.now());
    await page.getByRole("grid", { name: "Dies" }).locator("div[style*='overflow']").evaluate((element, row) => element.scrollTo({ top: row * 32 }), ranks / 2);
    await page.locator(`[data-cell="r${ranks / 2}:rank_id"]`).waitFor();
    const scrolled = Date.now() - scrollStart;
    // Each long task with the step it ran in: the open (file chosen → first rows), until the report showed, or the scroll.
    const tasks = await page.evaluate(() => (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks);
    const step = (start: number) => (start < drawnAt ? "open" : start < reportedAt ? "report" : start < scrolledAt ? "after report" : "scroll");
    const long = tasks.filter((task) => task.start >= chosenAt).map((task) => `${Math.round(task.duration)} ms (${step(task.start)}, +${Math.round(task.start - chosenAt)} ms)`);
    console.log(
      `${ranks.toLocaleString("en")} ranks (${(bytes / 1024 / 1024).toFixed(0)} MiB ${savedId === undefined ? "file): file chosen" : "saved revision): page opened"} → first grid rows ${(drawn / 1000).toFixed(1)} s (main-thread tasks ${((tasksAtDrawn - tasksBefore) * 1000).toFixed(0)} ms), ` +
        `→ report ${(reported / 1000).toFixed(1)} s (main thread ${((tasksAtReport - tasksBefore) * 1000).toFixed(0)} ms); scroll to the middle → rows ${scrolled} ms; ` +
        `long tasks since the file was chosen: ${long.length ? long.join(", ") : "none"} (${load()}); ` +
        `peak RSS to the report: browser ${mib(browserPeak!.largest)} (largest process), ${mib(browserPeak!.total)} (all), server ${mib(serverPeak!.largest)}`,
    );
    console.log(`  Chromium's CPU s to the first rows: ${cpuAtDrawn}\n  to the report: ${cpuAtReport}`);
  } finally {
    await browser.close();
    await rm(file, { force: true });
  }
}

async function run(): Promise<void> {
  const sizes = (process.env.RANKSCOPE_BENCH_EDITOR_SIZES ?? "16384,131072,524288").split(",").map((size) => Number(size.trim()));
  const release = await lockCheckout();
  try {
    if (process.env.RANKSCOPE_BENCH_BUILD === "1" && (await buildStandalone({ typecheck: false })) !== 0) throw new Error("next build failed");
    if (!existsSync(standaloneServer)) throw new Error(`no production build at ${standaloneServer}: run \`npx tsx scripts/production-build.ts\` or set RANKSCOPE_BENCH_BUILD=1`);
    await withDemoDatabase(2, async ({ handle, server: postgres }) => {
      await createUser(handle.db, { ...user, role: "editor" }, systemActor);
      const app = await serveApp(postgres.url());
      try {
        for (const ranks of sizes) await openInBrowser(app.base, app.pid, ranks);
      } finally {
        app.stop();
      }
    });
  } finally {
    release();
  }
}

export const editorBrowserBench: BenchSection = {
  name: "editor-browser",
  description: "Chromium: a generated 2.0 table (16k/131k/524k ranks) opened from a file into the worker: first rows, report, main-thread task time, long tasks",
  run,
};
