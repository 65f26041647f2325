/**
 * `npm run bench -- fault-reads`: what one viewer's fault timeline and statistics of the last 24 h cost while events
 * are ingested (issue 20, item 7), in CPU, which the machine's load does not change much: the load bench's data (the
 * demo, then batches of 1,000 events 50 ms apart from 20 h ago on: scripts/bench/load.ts), and after each new batch
 * the two answers as the server gives them (computed, serialised, compressed once: server/faults/read-cache.ts), their
 * Node.js CPU (this process) and PostgreSQL's (the embedded server's processes) measured apart; and what each further
 * response of a kept answer costs: the gzip file as kept (the console asks for it) nothing but its copy to the socket,
 * the plain JSON a gzip by Next.js every time (timed here as that: `gzip` is zlib's default level, as Next.js's). The batches are
 * ingested between the reads, not during them, so each figure is one answer's own cost on data a batch just changed.
 * Every FAULT_READS_REFRESH_EVERY (3) batches the rollups are refreshed as the servers' refresher does after
 * ingestion (server/faults/rollup-refresher.ts: at most one every 5 s, the load bench's 600 events/s being a batch
 * every 1.7 s), its cost printed apart. Each timeline answer is then stored as the instance that computed it stores
 * it for the others (shared_fault_answers: db/queries/faults/shared-answers.ts) and taken back as another instance
 * takes it instead of computing it: both costs printed. FAULT_READS_PRELOAD (40) batches before, FAULT_READS_ROUNDS
 * (20) measured. Asserts nothing.
 */
import { gzipSync } from "node:zlib";
import { systemActor } from "@/db/queries/audit";
import { getClusterOrThrow } from "@/db/queries/clusters";
import {
  currentSnapshot,
  faultStatistics,
  ingestFaultEvents,
  listTimeline,
  obtainFaultAnswer,
  refreshFaultRollups,
  refreshFaultRollupsUnlessBusy,
} from "@/db/queries/faults";
import { timelineQuerySchema } from "@/db/schema/fault-event/validation";
import { liveWindowEnd } from "@/lib/faults/url";
import { postgresCpuMs } from "../proc-stats";
import { withDemoDatabase } from "./demo-database";
import { batchOf } from "./fault-ingest";
import type { BenchSection } from "./index";
import { loadAverage, median, ms } from "./percentiles";

const PRELOAD = Number(process.env.FAULT_READS_PRELOAD ?? 40);
const ROUNDS = Number(process.env.FAULT_READS_ROUNDS ?? 20);
const REFRESH_EVERY = Number(process.env.FAULT_READS_REFRESH_EVERY ?? 3);
const day = 86_400_000;

interface Cost {
  node: number;
  postgres: number;
  wall: number;
  /** Node.js CPU of the gzip alone: what Next.js spends on each response of the plain JSON. */
  gzip: number;
}

async function run(): Promise<void> {
  await withDemoDatabase(8, async ({ handle, server }) => {
    const cluster = await getClusterOrThrow(handle.db, "atlas-a3-demo");
    const start = Date.now() - 20 * 3_600_000;
    let batch = 0;
    const ingest = () => ingestFaultEvents(handle, batchOf(batch++, start, 50), { atomic: "all", actor: systemActor });
    for (let i = 0; i < PRELOAD; i++) await ingest();
    await refreshFaultRollups(handle.pool, cluster.id);
    await handle.pool.query("vacuum analyze");

    /** One answer's cost: Node.js CPU around it, PostgreSQL's read before and after (outside the Node.js figure). */
    const cpuMs = (since: NodeJS.CpuUsage) => {
      const used = process.cpuUsage(since);
      return (used.user + used.system) / 1000;
    };
    const measure = async (work: () => Promise<unknown>, serialise = true): Promise<Cost & { compressed: Buffer; json: number }> => {
      const pgBefore = await postgresCpuMs(server.dataDir);
      const began = performance.now();
      const cpu = process.cpuUsage();
      const value = await work();
      const body = serialise ? Buffer.from(JSON.stringify(value)) : Buffer.alloc(0);
      const zipping = process.cpuUsage();
      const compressed = serialise ? gzipSync(body) : Buffer.alloc(0);
      const gzip = cpuMs(zipping);
      const node = cpuMs(cpu);
      const wall = performance.now() - began;
      return { node, gzip, postgres: (await postgresCpuMs(server.dataDir)) - pgBefore, wall, compressed, json: body.length };
    };
    const costs = { timeline: [] as Cost[], statistics: [] as Cost[], refresh: [] as Cost[], stored: [] as Cost[], taken: [] as Cost[] };
    let sizes = { timeline: 0, timelineJson: 0, statistics: 0, statisticsJson: 0, events: 0, total: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      await ingest();
      if (round % REFRESH_EVERY === REFRESH_EVERY - 1) costs.refresh.push(await measure(() => refreshFaultRollupsUnlessBusy(handle.pool, cluster.id)));
      const now = Date.now();
      const to = liveWindowEnd(now);
      const query = timelineQuerySchema.parse({ cluster: cluster.slug, from: to - day, to, state: "all" });
      let shown = 0;
      let total = 0;
      const snapshot = await currentSnapshot(handle.pool);
      const timeline = await measure(async () => {
        const result = await listTimeline(handle.pool, cluster, query, now);
        shown = result.events.length;
        total = result.total;
        return result;
      });
      const statistics = await measure(() => faultStatistics(handle.pool, cluster, to - day, to, now));
      costs.timeline.push(timeline);
      costs.statistics.push(statistics);
      sizes = { timeline: timeline.compressed.length, timelineJson: timeline.json, statistics: statistics.compressed.length, statisticsJson: statistics.json, events: shown, total };
      // Stored by the instance that computed it (under the key's lock), then taken by another instead of computing.
      const key = `timeline?bench=${round}`;
      const stored = { snapshot, headers: {}, jsonBytes: timeline.json, gzip: timeline.compressed };
      costs.stored.push(await measure(() => obtainFaultAnswer(handle.pool, key, () => false, async () => stored, { waitMs: 1_000 }), false));
      costs.taken.push(await measure(() => obtainFaultAnswer(handle.pool, key, () => true, () => Promise.reject(new Error("computed")), { waitMs: 1_000 }), false));
    }
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KiB`;
    const med = (values: Cost[], of: (c: Cost) => number) => ms(median(values.map(of)));
    const line = (name: string, values: Cost[]) =>
      `${name}: CPU per answer, median of ${values.length}: Node.js ${med(values, (c) => c.node)}, PostgreSQL ${med(values, (c) => c.postgres)}; wall ${med(values, (c) => c.wall)}`;
    const answer = (name: string, values: Cost[], json: number, gzipped: number) =>
      `${line(name, values)}; answer ${kib(json)} of JSON, ${kib(gzipped)} gzipped (once: ${med(values, (c) => c.gzip)} of the Node.js CPU); ` +
      `each further response of a kept answer: the plain JSON gzipped again by Next.js, ${med(values, (c) => c.gzip)}, the gzip file as kept, none`;
    console.log(`${PRELOAD} batches of 1,000 events before, then ${ROUNDS} rounds of a batch and the two answers (the timeline: ${sizes.events.toLocaleString("en-US")} of ${sizes.total.toLocaleString("en-US")} events)`);
    console.log(answer("timeline, 24 h", costs.timeline, sizes.timelineJson, sizes.timeline));
    console.log(answer("statistics, 24 h", costs.statistics, sizes.statisticsJson, sizes.statistics));
    console.log(line(`rollup refresh after ${REFRESH_EVERY} batches (off the readers' path)`, costs.refresh));
    console.log(line("timeline stored for the other instances (lock, look-up, insert)", costs.stored));
    console.log(line("timeline taken from the stored answers by another instance, instead of computed", costs.taken));
    console.log(`load average: ${loadAverage()}`);
  });
}

export const faultReadsBench: BenchSection = {
  name: "fault-reads",
  description: "CPU of one viewer's 24-hour fault timeline and statistics right after each ingested batch (Node.js and PostgreSQL apart)",
  run,
};
