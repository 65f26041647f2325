/**
 * The job page in Chromium (issue 21: "the job page for a job on 100,000 ranks"), on a database that already holds
 * the jobs, such as one the scale bench (./scale.ts, `SCALE_END=0`) or its ./scale-usage.ts filled:
 * `JOB_PAGE_DATABASE_URL=postgres://… npm run bench -- job-page` opens the page of every job named as the scale
 * bench names its job (`JOB_PAGE_JOBS=12,13` picks others), `JOB_PAGE_RUNS` times each (default 3), and prints per
 * page: navigation → drawn (the topology), navigation → settled (every section answered and rendered), the longest
 * main-thread task after hydration, its three longest tasks with what ran in them, and the load average. Then the
 * console's other pages on the same data: the fault timeline of each job's cluster (its events over the last day,
 * the chart and the table), its statistics, trends and report, the overview, the rank-table list and the job list
 * (`JOB_PAGE_OTHERS=0` skips them). `JOB_PAGE_PAGES=timeline,trends` keeps only the pages whose label holds one of
 * those words.
 * `JOB_PAGE_PROFILE=DIR` also CPU-profiles each page's last load (./page-profile.ts: the busiest functions of its long
 * tasks; build with RANKSCOPE_SOURCE_MAPS=1 to read them against the sources). `JOB_PAGE_TRACE=DIR` traces one load
 * of each page (./page-trace.ts: what its long tasks ran outside JavaScript too: style, layout, paint, canvas copies).
 * `JOB_PAGE_BUILD=0` serves the build already in .next-e2e instead of building it. It never asserts timings.
 */
import os from "node:os";
import pg from "pg";
import { appOnExisting } from "./bench-app";
import { measureTopologyPages, ms, type BrowserCase } from "./browser-topology";
import type { BenchSection } from "./index";
import { SCALE_JOB_NAME } from "./scale-views";

/** What marks each section of the job page answered (components/jobs, components/ports/job-ports.tsx). */
const sections = ['[data-testid="job-cost"]', '[data-testid="job-ports"]', '[data-testid="cpu-binding-current"]'];

async function jobCases(url: string): Promise<BrowserCase[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const wanted = process.env.JOB_PAGE_JOBS?.split(",").map(Number);
    const { rows } = await client.query<{ id: number; slug: string; ranks: string }>(
      `select j.id, c.slug, (select count(*) from job_ranks r where r.job_id = j.id) as ranks from jobs j join clusters c on c.id = j.cluster_id
       where ${wanted ? "j.id = any($1)" : "j.name = $1"} order by j.id`,
      [wanted ?? SCALE_JOB_NAME],
    );
    const jobs = rows.map((row) => ({ label: `${row.slug}, job ${row.id} (${Number(row.ranks).toLocaleString("en")} ranks)`, path: `/jobs/${row.id}`, settled: sections }));
    const pages = process.env.JOB_PAGE_PAGES?.split(",");
    const kept = (cases: BrowserCase[]) => cases.filter((c) => !pages || pages.some((word) => c.label.includes(word)));
    if (process.env.JOB_PAGE_OTHERS === "0") return kept(jobs);
    const others: BrowserCase[] = [...new Set(rows.map((row) => row.slug))].flatMap((slug) => [
      { label: `${slug}, fault timeline`, path: `/faults?cluster=${slug}`, drawn: '[data-testid="fault-timeline"] canvas', settled: ['[data-testid="fault-events-table"] .ant-table-row'] },
      { label: `${slug}, fault statistics`, path: `/faults?cluster=${slug}&tab=statistics`, drawn: '[data-testid="fault-statistics"] .ant-card' },
      { label: `${slug}, fault trends`, path: `/faults?cluster=${slug}&tab=trends`, drawn: '[data-testid="fault-trends"] canvas' },
      { label: `${slug}, fault report`, path: `/faults/report?cluster=${slug}`, drawn: '[data-testid="fault-report"] canvas' },
    ]);
    others.push(
      { label: "overview", path: "/", drawn: "main section" },
      { label: "rank-table list", path: "/rank-tables", drawn: ".ant-table-row" },
      { label: "job list", path: "/jobs", drawn: ".ant-table-row" },
    );
    return kept([...jobs, ...others]);
  } finally {
    await client.end();
  }
}

export const jobPageBench: BenchSection = {
  name: "job-page",
  description: "the job page in Chromium on an existing database: drawn, settled, the longest task after hydration",
  async run() {
    const url = process.env.JOB_PAGE_DATABASE_URL;
    if (!url) throw new Error("JOB_PAGE_DATABASE_URL: the database holding the jobs (see scripts/bench/job-page.ts)");
    const runs = Number(process.env.JOB_PAGE_RUNS ?? 3);
    const app = await appOnExisting(url, process.env.JOB_PAGE_BUILD !== "0");
    try {
      const cases = await jobCases(url);
      for (const c of cases) {
        const load = os.loadavg().map((value) => value.toFixed(1)).join(" / ");
        const [figure] = await measureTopologyPages(app.base, [c], runs, { profile: process.env.JOB_PAGE_PROFILE, trace: process.env.JOB_PAGE_TRACE });
        console.log(
          `| ${figure!.label} | drawn ${ms(figure!.drawn)} | settled ${ms(figure!.settled)} | after hydration ${ms(figure!.own)} / ${ms(figure!.ownMax)} | zoom ${ms(figure!.zoom)} / ${ms(figure!.zoomMax)} | load ${load} |`,
        );
        console.log(`  worst run: ${figure!.worst}`);
        if (figure!.profile) console.log(figure!.profile);
      }
    } finally {
      app.stop();
    }
  },
};
