/**
 * The topology page's views in Chromium on a database that already holds clusters, such as one the scale bench
 * (./scale.ts, `SCALE_END=0`) or its commands filled: `TOPOLOGY_PAGES_DATABASE_URL=postgres://… npm run bench --
 * topology-pages` opens, for every cluster whose slug starts with `scale-` (`TOPOLOGY_PAGES_CLUSTERS=a,b` picks
 * others), the scale bench's pages (cluster, row or super pod, rack, server 2 hops) and a server alone, its die's
 * neighbourhood (3 hops from its first die) and that die selected, `TOPOLOGY_PAGES_RUNS` times each (default 3), and
 * prints per page navigation → drawn, the longest main-thread task after hydration (median / max) with what ran in
 * the worst run's longest tasks, and the load average. `TOPOLOGY_PAGES_VIEWS=cluster,rack` picks pages by label;
 * `TOPOLOGY_PAGES_BUILD=0` serves the build already in .next-e2e. `TOPOLOGY_PAGES_PROFILE=DIR` profiles each page's
 * last load under the DevTools CPU profiler and prints, per long task after hydration, the functions that took its
 * time (./page-profile.ts, as `npm run bench -- job-page` does); `TOPOLOGY_PAGES_TRACE=DIR` traces one load of each
 * (./page-trace.ts). It never asserts timings.
 */
import os from "node:os";
import pg from "pg";
import { appOnExisting, signIn } from "./bench-app";
import { measureTopologyPages, ms, type BrowserCase } from "./browser-topology";
import type { BenchSection } from "./index";
import { browserCases } from "./scale-browser";

async function clusterSlugs(url: string): Promise<string[]> {
  const wanted = process.env.TOPOLOGY_PAGES_CLUSTERS?.split(",");
  if (wanted) return wanted;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ slug: string }>("select slug from clusters where slug like 'scale-%' order by id");
    return rows.map((row) => row.slug);
  } finally {
    await client.end();
  }
}

/** The scale bench's pages of the cluster without its job page, and the views of one server and one of its dies. */
async function pageCases(url: string, app: { base: string; cookie: string }, slug: string): Promise<BrowserCase[]> {
  const cases = (await browserCases(url, app, slug)).filter((c) => c.label !== "job page");
  const hops = cases.find((c) => c.label === "server 2 hops");
  if (hops) {
    const server = hops.path.replace("&hops=2", "");
    const id = new URLSearchParams(server.split("?")[1]).get("id")!;
    const response = await fetch(`${app.base}/api/v1/clusters/${slug}/topology?level=server&id=${encodeURIComponent(id)}`, { headers: { cookie: app.cookie } });
    const die = ((await response.json()) as { nodes: { id: string; kind: string }[] }).nodes.find((node) => node.kind === "die")?.id;
    cases.push({ label: "server", path: server });
    if (die) {
      cases.push({ label: "die selected", path: `${server}&sel=${encodeURIComponent(`die:${die}`)}` });
      cases.push({ label: "from a die, 3 hops", path: `${server}&hops=3&from=${encodeURIComponent(die)}` });
    }
  }
  const views = process.env.TOPOLOGY_PAGES_VIEWS?.split(",");
  return views ? cases.filter((c) => views.includes(c.label)) : cases;
}

export const topologyPagesBench: BenchSection = {
  name: "topology-pages",
  description: "the topology views in Chromium on an existing database: drawn, the longest task after hydration",
  async run() {
    const url = process.env.TOPOLOGY_PAGES_DATABASE_URL;
    if (!url) throw new Error("TOPOLOGY_PAGES_DATABASE_URL: the database holding the clusters (see scripts/bench/topology-pages.ts)");
    const runs = Math.max(1, Number(process.env.TOPOLOGY_PAGES_RUNS ?? 3));
    const diagnostics = { profile: process.env.TOPOLOGY_PAGES_PROFILE, trace: process.env.TOPOLOGY_PAGES_TRACE };
    const app = await appOnExisting(url, process.env.TOPOLOGY_PAGES_BUILD !== "0");
    try {
      const signed = { ...app, cookie: await signIn(app.base) };
      for (const slug of await clusterSlugs(url)) {
        for (const c of await pageCases(url, signed, slug)) {
          const load = os.loadavg().map((value) => value.toFixed(1)).join(" / ");
          const [figure] = await measureTopologyPages(app.base, [{ ...c, label: `${slug} ${c.label}` }], runs, diagnostics);
          console.log(
            `| ${figure!.label} | drawn ${ms(figure!.drawn)} | after hydration ${ms(figure!.own)} / ${ms(figure!.ownMax)} | zoom ${ms(figure!.zoom)} / ${ms(figure!.zoomMax)} | load ${load} |`,
          );
          console.log(`  worst run: ${figure!.worst}`);
          if (figure!.profile) console.log(figure!.profile);
        }
      }
    } finally {
      app.stop();
    }
  },
};
