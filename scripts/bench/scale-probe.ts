/**
 * One run of the scale bench's server side (./scale.ts), in a process of its own so that its memory is one
 * cluster's: `tsx scripts/bench/scale-probe.ts DATABASE_URL SLUG` builds the cluster's topology index (cold, as the
 * first request after a start does: from the snapshot stored with the inventory), searches it and requests every view of ./scale-views.ts cold and warm, and
 * prints the figures as one JSON line. SCALE_VIEWS="job overlay,job dies" times only the views whose names hold one of
 * those parts (to profile a few: `node --cpu-prof --import tsx scripts/bench/scale-probe.ts …`).
 */
import { connectDatabase } from "@/db/client";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { builtIndexCount, snapshotIndexCount, topologyIndex } from "@/db/queries/topology";
import { searchTopology } from "@/lib/topology/search";
import { jobViews, pageViews, scaleViews } from "./scale-views";

const WARM_RUNS = 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const mb = () => Math.round(process.memoryUsage().rss / 2 ** 20);
async function timed<T>(work: () => Promise<T> | T): Promise<[number, T]> {
  const started = performance.now();
  const value = await work();
  return [performance.now() - started, value];
}

const [url, slug] = process.argv.slice(2);
const handle = connectDatabase(url!, { max: 4 });
try {
  const cluster = await getClusterOrThrow(handle.db, slug!);
  const figures: Record<string, number> = { "server RSS at start (MB)": mb() };
  const cpu = process.cpuUsage();
  const [indexMs, index] = await timed(() => topologyIndex(handle.db, cluster));
  const cpuUsed = process.cpuUsage(cpu);
  figures["index: load + build, cold (ms)"] = indexMs;
  // 1 when it came from the snapshot stored with the revision (db/queries/inventory-snapshot.ts), 0 from the rows.
  figures["index: from the stored snapshot (1 = yes)"] = snapshotIndexCount();
  // This process's CPU only (reading rows and building), not PostgreSQL's: on a shared machine it follows the load less.
  figures["index: CPU of the server, user + sys (ms)"] = (cpuUsed.user + cpuUsed.system) / 1000;
  figures["server RSS with the index (MB)"] = mb();
  // Ten requests at once for the same revision: they must share the one build.
  const [againMs] = await timed(() => Promise.all(Array.from({ length: 10 }, () => topologyIndex(handle.db, cluster))));
  figures["index: 10 more requests (ms)"] = againMs;

  // Search: the first builds the search index; then the kinds of query a user types, warm.
  const queries = [String(Math.floor(index.dieCount / 2)), index.servers.at(-1)!.id, index.servers.at(-1)!.id.slice(0, -2), "rack1"];
  const [searchCold] = await timed(() => searchTopology(index, queries[0]!));
  figures["search: first (ms)"] = searchCold;
  const searchWarm: number[] = [];
  for (let run = 0; run < WARM_RUNS; run++) for (const query of queries) searchWarm.push((await timed(() => JSON.stringify(searchTopology(index, query))))[0]);
  figures["search: warm median (ms)"] = median(searchWarm);
  figures["search: warm max (ms)"] = Math.max(...searchWarm);

  const picked = process.env.SCALE_VIEWS?.split(",").filter(Boolean);
  for (const view of [...scaleViews, ...pageViews, ...jobViews]) {
    if (view.applies && !view.applies(index)) continue;
    if (picked && !picked.some((part) => view.name.includes(part))) continue;
    const rssBefore = mb();
    const [cold, body] = await timed(async () => JSON.stringify(await view.request(handle, cluster, index)));
    const warm: number[] = [];
    const warmCpu: number[] = [];
    for (let run = 0; run < WARM_RUNS; run++) {
      const before = process.cpuUsage();
      warm.push((await timed(async () => JSON.stringify(await view.request(handle, cluster, index))))[0]);
      const used = process.cpuUsage(before);
      warmCpu.push((used.user + used.system) / 1000);
    }
    figures[`view ${view.name}: cold (ms)`] = cold;
    figures[`view ${view.name}: warm median (ms)`] = median(warm);
    // This process's CPU (not PostgreSQL's): what the server itself spends, less bent by the machine's load.
    figures[`view ${view.name}: warm CPU of the server, median (ms)`] = median(warmCpu);
    figures[`view ${view.name}: body (KB)`] = body.length / 1024;
    // What the server's memory grew by over the view's requests (what it keeps and what it allocated), when it did.
    const grown = mb() - rssBefore;
    if (grown >= 10) figures[`view ${view.name}: server RSS growth (MB)`] = grown;
  }
  figures["indexes built (must be 1)"] = builtIndexCount();
  figures["server RSS at end (MB)"] = mb();
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} finally {
  await handle.pool.end();
}
