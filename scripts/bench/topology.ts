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
import os from "node:os";
import { systemActor } from "@/db/queries/audit";
import { insertCluster } from "@/db/queries/inventory";
import { createUser } from "@/db/queries/users";
import { largeA3Cluster } from "@/lib/topology/large-cluster";
import { lockCheckout } from "../e2e-lock";
import { benchUser, signIn, startApp } from "./bench-app";
import { BROWSER_RUNS, measureTopologyPages, ms, printBrowserFigures } from "./browser-topology";
import { withDemoDatabase } from "./demo-database";
import type { BenchSection } from "./index";
import { median } from "./percentiles";

const RUNS = BROWSER_RUNS;
const user = benchUser;

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

async function browserFigures(base: string) {
  const cases = [
    { label: "demo (1,536 dies): cluster view", path: "/topology?cluster=atlas-a3-demo" },
    { label: "demo (1,536 dies): super pod view", path: "/topology?cluster=atlas-a3-demo&level=superpod&id=0" },
    { label: "16,384 dies: cluster view", path: "/topology?cluster=atlas-a3-large" },
    { label: "16,384 dies: super pod view", path: "/topology?cluster=atlas-a3-large&level=superpod&id=pod-0" },
  ];
  const loadBefore = os.loadavg()[0]!;
  const figures = await measureTopologyPages(base, cases);
  console.log(`\nLoad average (1 min) on ${os.cpus().length} CPUs: ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after the browser runs.`);
  printBrowserFigures(figures);
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

      const app = await startApp(postgres.url());
      try {
        await apiFigures(app.base, await signIn(app.base), bump);
        await browserFigures(app.base);
      } finally {
        app.stop();
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
