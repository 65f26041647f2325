/**
 * SuperCluster scale (issue 21): for Atlas 950 clusters of 16,384, 131,072 and 524,288 NPUs (2, 16 and 64 SuperPoDs
 * of 128 racks × 64 NPUs; SCALE_NPUS="16384,131072" picks others, multiples of 8,192):
 * - generate: `rankscope generate --version 2.0 --super-pods N --racks 128 --output DIR` (one table per SuperPoD);
 * - import: `rankscope cluster add SLUG --from DIR`, its wall time, the CPU of the CLI (user + sys, GNU time) and of
 *   PostgreSQL for the database (./pg-cpu.ts), peak RSS, and the rows it wrote;
 * - faults spread over the cluster and a job on min(100,000, NPUs) ranks, created as the API creates them
 *   (./scale-usage.ts), the job's body and time;
 * - server side, in a fresh process per cluster (./scale-probe.ts): the topology index cold, the search cold and
 *   warm, every view of ./scale-views.ts (the job page's loaders too) cold and warm, and the process's RSS;
 * - in Chromium (./browser-topology.ts, the app built into .next-e2e under the test runners' lock and served on the
 *   run's database): the cluster, super pod or row, rack and job pages, navigation → drawn and the longest main-thread task
 *   after hydration and while zooming;
 * - the end of the cluster (./scale-delete.ts): its inventory replaced by itself, then the cluster deleted with its
 *   job and faults, each with PostgreSQL's CPU and the slowest console read meanwhile (so each size is gone before
 *   the next is imported).
 * Besides the Atlas 950 SuperCluster, two clusters of as many NPUs exercise the views drawn by rack (a "2.0" server is a
 * rack already, so it has none): Atlas A3 super pods of 128 servers (1.2 tables; a pod of more than 64 servers is
 * drawn by rack, 16 racks of 8 servers) and plain Atlas A2 servers (1.0 tables; more than 1,024 servers are drawn by
 * rack, more than 128 racks by row of 128 racks: 2,048 servers at 16k NPUs are 256 racks in 2 rows). Each gets the same faults, job, probe and end; its rows are prefixed with its name.
 * SCALE_KINDS="atlas950,a3-racks,plain" picks among them, SCALE_END=0 skips the replace and delete (each cluster then
 * stays until the database is dropped).
 * Then one table with each figure per size and its growth from the smallest to the largest. The database is a fresh
 * one on TEST_DATABASE_URL's server when that is set, else a throwaway embedded PostgreSQL. Generated tables and the
 * embedded server's data go under /var/tmp (SCALE_DIR), not the small /tmp: 524,288 NPUs are 870 MB of tables.
 * Each figure carries the load average it was taken at; it never asserts timings.
 */
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { lockCheckout } from "../e2e-lock";
import { descendantsUsage } from "../proc-stats";
import { measureTopologyPages } from "./browser-topology";
import type { BenchSection } from "./index";
import { watchDatabaseCpu } from "./pg-cpu";
import { appOn, browserCases, timeSearch } from "./scale-browser";
import { printTable, run, scaleDatabase, scratchDirectory, storedRows, tsx } from "./scale-harness";

const RACKS = 128;
/** Issue 21: "the job page for a job on 100,000 ranks". */
const JOB_RANKS = 100_000;
/** Fault events spread over every super pod, for the timeline and statistics. */
const FAULTS = 5_000;
const NPUS_PER_POD = RACKS * 64;
const sizes = (process.env.SCALE_NPUS ?? "16384,131072,524288").split(",").map(Number);

/**
 * The import runs with its main heap capped: V8 otherwise lets garbage pile up to whatever it may use (a 131k import
 * peaked at 678 MB uncapped, 391 MB with 160 MB of old space, in the same time). With a cap its peak RSS is what it
 * needs, and that it stays the same from 16k to 524k NPUs is the "bounded memory" of the streamed import.
 */
const IMPORT_HEAP_MB = 192;

interface ScaleKind {
  name: string;
  /** The `rankscope generate` arguments for a cluster of `npus` NPUs, written into `directory`. */
  generate(npus: number, directory: string): string[];
  /** What `cluster add --from` reads: the directory, or the one table in it. */
  source(directory: string): string;
  /**
   * The import's old space (MB) for `npus` NPUs. A SuperCluster is streamed one table at a time in IMPORT_HEAP_MB; a
   * 1.x cluster is one table, read as it streams too (lib/topology/import-stream.ts), but its text and the validator's
   * view of every die stay for the check (0.6 GB of heap at 524,288 A3 NPUs), and the fabric of the whole cluster is
   * derived at once (131,072 A3 NPUs ran out in 512 MB; 524,288 peaked at 1.9 GB RSS in 2,048).
   */
  importHeapMb(npus: number): number;
}
const A3_SERVERS_PER_POD = 128;
/** A 1.x table (read as it streams, its fabric derived whole). */
const oneTableHeapMb = () => 2048;
const kinds: ScaleKind[] = [
  {
    name: "atlas950",
    generate: (npus, directory) => ["--version", "2.0", "--super-pods", String(npus / NPUS_PER_POD), "--racks", String(RACKS), "--output", directory],
    source: (directory) => directory,
    importHeapMb: () => IMPORT_HEAP_MB,
  },
  {
    // 8 NPUs × 2 dies a server, 128 servers a pod: 1,024 NPUs a pod.
    name: "a3-racks",
    generate: (npus, directory) => ["--version", "1.2", "--super-pods", String(npus / (A3_SERVERS_PER_POD * 8)), "--servers", String(A3_SERVERS_PER_POD), "--npus", "8", "--dies", "2", "--output", path.join(directory, "table.json")],
    source: (directory) => path.join(directory, "table.json"),
    importHeapMb: oneTableHeapMb,
  },
  {
    name: "plain",
    generate: (npus, directory) => ["--version", "1.0", "--servers", String(npus / 8), "--npus", "8", "--dies", "1", "--output", path.join(directory, "table.json")],
    source: (directory) => path.join(directory, "table.json"),
    importHeapMb: oneTableHeapMb,
  },
];
const kindNames = (process.env.SCALE_KINDS ?? kinds.map((kind) => kind.name).join(",")).split(",");
const runEnd = process.env.SCALE_END !== "0";
/** SCALE_BROWSER=0 skips Chromium; SCALE_BROWSER_RUNS page loads per view (the first one finds the server's index cold). */
const runBrowser = process.env.SCALE_BROWSER !== "0";
const browserRuns = Number(process.env.SCALE_BROWSER_RUNS ?? 3);

const load = () => os.loadavg()[0]!.toFixed(1);

export const scaleBench: BenchSection = {
  name: "scale",
  description: "SuperCluster scale: generate, import, index, search, views (API and Chromium), replace and delete at 16k, 131k and 524k NPUs",
  async run() {
    const bad = sizes.find((npus) => !Number.isInteger(npus) || npus < NPUS_PER_POD || npus % NPUS_PER_POD !== 0);
    if (bad !== undefined) throw new Error(`SCALE_NPUS: ${bad} is not a multiple of ${NPUS_PER_POD} NPUs (one SuperPoD)`);
    const database = await scaleDatabase();
    // The build (.next-e2e) is the test runners' too: held under their lock while the app runs.
    const release = runBrowser ? await lockCheckout() : () => undefined;
    const served: { app?: Awaited<ReturnType<typeof appOn>> } = {};
    /** What ran in the worst run of each page, printed after the table. */
    const worst: string[] = [];
    const rows = new Map<string, (number | null)[]>();
    const put = (name: string, column: number, value: number | null) => {
      if (!rows.has(name)) rows.set(name, sizes.map(() => null));
      rows.get(name)![column] = value;
    };
    /** One cluster of `kind` with `npus` NPUs: generate, import, faults and job, probe, and (SCALE_END) its end. */
    const runKind = async (kind: ScaleKind, column: number, npus: number) => {
      const slug = `scale-${kind.name}-${npus}`;
      // The Atlas 950 rows keep their names; the others say which cluster they are of.
      const named = (name: string) => (kind.name === "atlas950" ? name : `${kind.name}: ${name}`);
      const putOf = (name: string, value: number | null) => put(named(name), column, value);
      const say = (text: string) => console.log(`${npus} NPUs, ${kind.name}: ${text} (load ${load()})`);
      const directory = await scratchDirectory(`rankscope-scale-${kind.name}-${npus}-`);
      try {
        putOf("load average (1 min) at start", Number(load()));
        const generated = await run(tsx("scripts/cli/index.ts", "generate", ...kind.generate(npus, directory)));
        putOf("generate (s)", generated.ms / 1000);
        say(`generated in ${(generated.ms / 1000).toFixed(1)} s`);
        const loadBefore = load();
        const pgCpu = await watchDatabaseCpu(database.url);
        const imported = await run([process.execPath, `--max-old-space-size=${kind.importHeapMb(npus)}`, ...tsx("scripts/cli/index.ts", "cluster", "add", slug, "--from", kind.source(directory)).slice(1)], {
          DATABASE_URL: database.url,
        });
        const pgCpuS = await pgCpu.stop();
        putOf("import: wall (s)", imported.ms / 1000);
        putOf("import: CPU of the CLI, user + sys (s)", imported.cpuS);
        putOf("import: CPU of PostgreSQL for the database (s)", pgCpuS);
        putOf("import: peak RSS (MB)", imported.peakMb);
        putOf("import: old space allowed (MB)", kind.importHeapMb(npus));
        putOf("import: load average (1 min) at its end", Number(load()));
        say(
          `${imported.stdout.trim()} in ${(imported.ms / 1000).toFixed(1)} s, CPU ${imported.cpuS?.toFixed(1)} s CLI + ${pgCpuS?.toFixed(1)} s PostgreSQL, peak RSS ${imported.peakMb} MB (load before ${loadBefore})`,
        );
        for (const [name, count] of Object.entries(await storedRows(database.url, slug))) putOf(`stored ${name}`, count);
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
      // Faults over the cluster, and a job on min(100,000, the cluster's) dies, created as the API creates them.
      const jobRanks = Math.min(JOB_RANKS, npus);
      const job = await run(tsx("scripts/bench/scale-usage.ts", database.url, slug, String(jobRanks), String(FAULTS)));
      for (const [name, value] of Object.entries(JSON.parse(job.stdout) as Record<string, number>)) putOf(name, value);
      say(`job on ${jobRanks} ranks created`);
      const probe = await run(tsx("scripts/bench/scale-probe.ts", database.url, slug));
      for (const [name, value] of Object.entries(JSON.parse(probe.stdout) as Record<string, number>)) putOf(name, value);
      say("probed");
      if (runBrowser) {
        const app = (served.app ??= await appOn(database.url));
        const search = await timeSearch(app, slug, npus);
        putOf("search over HTTP: first, cold (ms)", search.first);
        putOf("search over HTTP: warm median (ms)", search.median);
        putOf("search over HTTP: warm max (ms)", search.max);
        const figures = await measureTopologyPages(app.base, await browserCases(database.url, app, slug), browserRuns);
        for (const figure of figures) {
          putOf(`Chromium ${figure.label}: navigation → drawn, median (ms)`, figure.drawn);
          putOf(`Chromium ${figure.label}: longest task after hydration, median (ms)`, figure.own);
          putOf(`Chromium ${figure.label}: longest task after hydration, max (ms)`, figure.ownMax);
          putOf(`Chromium ${figure.label}: longest task while zooming, max (ms)`, figure.zoomMax);
          worst.push(`- ${npus} NPUs, ${kind.name}, ${figure.label}: ${figure.worst}`);
        }
        // One app server serves every cluster of the run: its memory holds each one browsed so far (their indexes).
        putOf("app server RSS after the pages, every cluster so far (MB)", Math.round((await descendantsUsage(app.pid)).rssBytes / 2 ** 20));
        say(`opened in Chromium (${browserRuns} runs a page)`);
      }
      if (runEnd) {
        const ended = JSON.parse((await run(tsx("scripts/bench/scale-delete.ts", database.url, slug))).stdout) as Record<string, number>;
        for (const [name, value] of Object.entries(ended)) putOf(name, value);
        say(`replaced in ${ended["replace: wall (s)"]?.toFixed(1)} s, deleted in ${ended["delete: wall (s)"]?.toFixed(1)} s`);
      }
      putOf("load average (1 min) at end", Number(load()));
    };
    try {
      for (const [column, npus] of sizes.entries()) {
        for (const kind of kinds.filter((k) => kindNames.includes(k.name))) await runKind(kind, column, npus);
        // The table so far after each size: a long run that fails later still leaves its figures.
        if (column < sizes.length - 1) printTable(sizes.map((n) => `${n.toLocaleString("en")} NPUs`), rows);
      }
      console.log("");
      printTable(sizes.map((npus) => `${npus.toLocaleString("en")} NPUs`), rows);
      if (worst.length > 0) {
        console.log("\nLongest tasks of each page's worst run (start after navigation; what ran in them, from Long Animation Frames):");
        for (const line of worst) console.log(line);
      }
    } finally {
      served.app?.stop();
      release();
      await database.cleanup();
    }
  },
};
