/**
 * `npm run bench -- editor-workers`: the editor's two workers alone in Chromium (components/rank-tables/
 * validation.worker.ts and text-reader.worker.ts, bundled by esbuild, no Next.js build or database), opening a
 * generated "2.0" table from a file as the page does (use-validation.ts): the reader's port to the validation worker,
 * `open`, the first rows once `hosted` comes, then the findings, then one edit. Per size: file chosen → summary →
 * first rows → report, and the CPU of each of the renderer's threads at each step (/proc, clock ticks), which tell
 * where an open goes on the shared machine when wall times are the other sessions' as much as the editor's: the
 * validation worker, the reader, the collector's helpers (ThreadPoolForeg…), the page's main thread (chromium).
 * RANKSCOPE_BENCH_EDITOR_SIZES picks the sizes (default 16384,131072,524288); RANKSCOPE_BENCH_NO_READER=1 opens
 * without the reader (the validation worker reads the file); RANKSCOPE_BENCH_TRACE=DIR records a Chromium trace of
 * every thread with the V8 sampling profiler (DIR/editor-workers-<ranks>.json).
 */
import { createWriteStream, existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { generateA5Table, type JsonValue } from "@/lib/rank-table";
import { writeRankTableParts } from "@/lib/rank-table/write-parts";
import { chromiumCpuSince, chromiumThreads } from "../proc-stats";
import type { BenchSection } from "./index";

/** Edits after the report, one after the other. */
const EDITS = 3;

const load = () => `load ${os.loadavg()[0]!.toFixed(1)}`;

async function writeTable(file: string, ranks: number): Promise<void> {
  const out = createWriteStream(file);
  for (const part of writeRankTableParts(generateA5Table({ racks: ranks / 64, npusPerRack: 64 }) as unknown as JsonValue)) {
    if (!out.write(part)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** The page: the workers started and spoken to as use-validation.ts does; each step logged with its time. */
const page = (withReader: boolean) => `<!doctype html><input type="file"><script type="module">
const log = window.steps = [];
const step = (name) => log.push([performance.now(), name]);
document.querySelector("input").onchange = (event) => {
  const file = event.target.files[0];
  const worker = window.worker = new Worker("/validation.js", { type: "module" });
  worker.onmessage = ({ data }) => {
    if (data.type === "hosted") { step("summary"); worker.postMessage({ type: "rows", seq: 2, node: undefined, from: 0, to: 40 }); }
    else if (data.type === "rows") step("first rows");
    else if (data.type === "findings" && data.done) step(data.seq >= 3 ? "edit " + (data.seq - 2) + "'s findings" : "report");
    else if (data.type === "failed" || data.type === "notJson") step("failed " + JSON.stringify(data));
  };
  step("chosen");
  if (${withReader}) {
    const reader = new Worker("/reader.js", { type: "module" });
    const channel = new MessageChannel();
    reader.postMessage({ source: file, port: channel.port1 }, [channel.port1]);
    worker.postMessage({ type: "open", seq: 1, source: { port: channel.port2 }, lang: "en" }, [channel.port2]);
  } else worker.postMessage({ type: "open", seq: 1, source: file, lang: "en" });
};
</script>`;

async function run(): Promise<void> {
  const sizes = (process.env.RANKSCOPE_BENCH_EDITOR_SIZES ?? "16384,131072,524288").split(",").map((size) => Number(size.trim()));
  const withReader = process.env.RANKSCOPE_BENCH_NO_READER !== "1";
  const tracing = process.env.RANKSCOPE_BENCH_TRACE;
  const dir = await mkdtemp(path.join(os.tmpdir(), "rankscope-editor-workers-"));
  const server = createServer((request, response) => {
    const file = path.join(dir, path.basename(request.url ?? ""));
    if (request.url === "/") response.setHeader("content-type", "text/html").end(page(withReader));
    else if (request.url?.endsWith(".js") && existsSync(file)) response.setHeader("content-type", "text/javascript").end(readFileSync(file));
    else response.writeHead(404).end();
  });
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  try {
    await build({
      entryPoints: { validation: "components/rank-tables/validation.worker.ts", reader: "components/rank-tables/text-reader.worker.ts" },
      bundle: true,
      format: "esm",
      outdir: dir,
      tsconfig: "tsconfig.json",
      logLevel: "warning",
      define: { "process.env.NODE_ENV": '"production"' },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    for (const ranks of sizes) {
      const file = path.join(dir, `ranks-${ranks}.json`);
      await writeTable(file, ranks);
      const tab = await browser.newPage();
      tab.setDefaultTimeout(900_000);
      await tab.goto(`http://127.0.0.1:${port}/`);
      if (tracing) {
        await browser.startTracing(tab, {
          path: path.join(tracing, `editor-workers-${ranks}.json`),
          categories: ["disabled-by-default-v8.cpu_profiler", "v8", "devtools.timeline", "disabled-by-default-v8.gc"],
        });
      }
      const before = await chromiumThreads(process.pid);
      const loadBefore = load();
      await tab.locator("input").setInputFiles(file);
      const lines: string[] = [];
      const seen = new Set<string>();
      for (;;) {
        const steps = await tab.evaluate(() => (window as unknown as { steps: [number, string][] }).steps);
        const cpu = await chromiumCpuSince(process.pid, before);
        for (const [at, name] of steps.filter(([, name]) => !seen.has(name))) {
          seen.add(name);
          lines.push(`  ${name}: ${((at - steps[0]![0]) / 1000).toFixed(1)} s (${load()}; CPU s ${cpu})`);
          // EDITS edits once the report is there, each once the last is answered: a field of rank 1,000 and the next
          // ranks, answered with its findings (the first lands while the open's garbage is still being collected).
          const edit = name === "report" ? 1 : Number(/^edit (\d+)'s findings$/.exec(name)?.[1] ?? NaN) + 1;
          if (edit <= EDITS) {
            await tab.evaluate((edit) => {
              const page = window as unknown as { worker: Worker; steps: [number, string][] };
              page.steps.push([performance.now(), `edit ${edit} sent`]);
              page.worker.postMessage({ type: "hostedEdit", seq: edit + 2, edit: { type: "setRank", rank: 999 + edit, field: "device_port", value: "7" }, lang: "en" });
            }, edit);
          }
        }
        if (seen.has(`edit ${EDITS}'s findings`) || [...seen].some((name) => name.startsWith("failed"))) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      if (tracing) await browser.stopTracing();
      // Worked out here: a function declared inside an evaluated one needs tsx's __name helper, absent in the page.
      const steps = await tab.evaluate(() => (window as unknown as { steps: [number, string][] }).steps);
      const at = (name: string) => steps.find((step) => step[1] === name)?.[0] ?? NaN;
      const edits = Array.from({ length: EDITS }, (_, index) => (at(`edit ${index + 1}'s findings`) - at(`edit ${index + 1} sent`)).toFixed(0));
      console.log(`${ranks.toLocaleString("en")} ranks, ${withReader ? "with" : "without"} the reader (from ${loadBefore}):\n${lines.join("\n")}\n  an edit → its findings: ${edits.join(", ")} ms`);
      await tab.close();
      await rm(file, { force: true });
    }
  } finally {
    await browser.close();
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export const editorWorkersBench: BenchSection = {
  name: "editor-workers",
  description: "Chromium: the editor's two workers alone opening a generated 2.0 table from a file, per step the CPU of each renderer thread",
  run,
};
