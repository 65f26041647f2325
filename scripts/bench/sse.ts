/**
 * `npm run bench -- sse`: live connections at scale on one production instance (cluster/instances.ts) on an embedded
 * PostgreSQL of its own. Opens 1,000 event streams (GET /api/v1/events, as the fault pages do) with the instance's cap
 * set to 1,000, asks for one more (it must be refused at once, 503 with Retry-After), then sends NOTIFYs on the faults
 * channel and times each from just before the NOTIFY to its arrival at every client: p50/p95/max over all
 * deliveries and the time to the last of the 1,000. Then slow clients: 10 streams that never read next to 100 that
 * do, under a flood of 1 KB notices; the slow ones must be dropped (server/faults/event-streams.ts) while the
 * readers get everything and the server's memory stays flat. Prints figures with the load average; asserts nothing.
 */
import pg from "pg";
import { faultChannel } from "@/db/schema/fault-event/constants";
import { cookieOf, productionBuild, serverUsage, embeddedPrimary, signIn, startInstance, stopInstance, type Instance } from "../cluster/instances";
import type { BenchSection } from "./index";
import { loadAverage, mib, ms, spread } from "./percentiles";
import { postgresCpuMs, serverConnections } from "../proc-stats";
import { openSseClient, type SseClient } from "./sse-clients";

const CLIENTS = 1000;
const OPEN_WAVE = 50;
const ROUNDS = 20;
const READERS_IN_FLOOD = 100;
const SLOW = 10;
const FLOOD_BATCH = 200;
const FLOOD_ROUNDS = 60;
const PAD = 1000;
/** Longer than the streams' 20 s keep-alive, or idle healthy streams would count as stalled. */
const STALL_SECONDS = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await sleep(5);
  }
  return true;
}

async function run(): Promise<void> {
  const build = await productionBuild();
  const primary = await embeddedPrimary();
  let instance: Instance | undefined;
  const pool = new pg.Pool({ connectionString: primary.url, max: 2 });
  const clients: SseClient[] = [];
  try {
    instance = await startInstance("sse", {
      ...build,
      DATABASE_URL: primary.url,
      RANKSCOPE_SEED_DEMO: "1",
      RANKSCOPE_DEMO_ACCOUNTS: "1",
      RANKSCOPE_SSE_MAX_STREAMS: String(CLIENTS),
      // The bench's clients are one signed-in user; a real user's cap stays at the default.
      RANKSCOPE_SSE_MAX_STREAMS_PER_USER: String(CLIENTS),
      // A stalled client's connection is closed after this long without progress (60 s by default).
      RANKSCOPE_SSE_STALL_SECONDS: String(STALL_SECONDS),
    });
    const headers = { cookie: cookieOf(await signIn(instance, "viewer", "viewer-demo-pass")) };
    const url = `${instance.base}/api/v1/events?cluster=atlas-a3-demo&max=3600`;
    const { rows } = await pool.query<{ id: number }>("select id from clusters where slug = 'atlas-a3-demo'");
    const clusterId = rows[0]!.id;
    const rssIdle = (await serverUsage(instance)).rssBytes;
    console.log(`load average before: ${loadAverage()}; server RSS idle (after start and one sign-in): ${mib(rssIdle)}`);

    const cpuBefore = (await serverUsage(instance)).cpuMs;
    const pgCpuBefore = await postgresCpuMs(primary.dataDir);
    const opening = performance.now();
    for (let i = 0; i < CLIENTS; i += OPEN_WAVE) {
      clients.push(...(await Promise.all(Array.from({ length: Math.min(OPEN_WAVE, CLIENTS - i) }, () => openSseClient(url, headers)))));
    }
    const openMs = performance.now() - opening;
    const openCpuMs = (await serverUsage(instance)).cpuMs - cpuBefore;
    const openPgCpuMs = (await postgresCpuMs(primary.dataDir)) - pgCpuBefore;
    const held = clients.filter((c) => c.status === 200);
    const asked = performance.now();
    const extra = await openSseClient(url, headers);
    const refusalMs = performance.now() - asked;
    const code = /"code":"([^"]+)"/.exec(extra.body)?.[1];
    await sleep(1000);
    const rssHeld = (await serverUsage(instance)).rssBytes;
    console.log(
      `connections held: ${held.length} of ${CLIENTS} asked (opened in ${ms(openMs)}, ${OPEN_WAVE} at a time; refused: ${clients.length - held.length}; ` +
        `CPU while opening: server ${ms(openCpuMs)} (${(openCpuMs / CLIENTS).toFixed(1)} ms a stream), PostgreSQL ${ms(openPgCpuMs)}; load average ${loadAverage()}); ` +
        `server RSS ${mib(rssHeld)} (+${((rssHeld - rssIdle) / held.length / 1024).toFixed(0)} KiB a stream)`,
    );
    console.log(`connection ${CLIENTS + 1}: ${extra.status} ${code ?? ""}, Retry-After ${extra.retryAfter ?? "none"}, answered in ${ms(refusalMs)}`);
    extra.close();

    // Fan-out: one NOTIFY at a time, as an ingest commit sends it; timed from just before the NOTIFY is sent.
    const sent = new Map<number, number>();
    const notify = (n: number) => {
      sent.set(n, performance.now());
      return pool.query("select pg_notify($1, $2)", [faultChannel, JSON.stringify({ clusterId, slug: "atlas-a3-demo", changed: n, at: Date.now() })]);
    };
    const live = () => held.filter((c) => c.closedAt === null);
    const deliveries: number[] = [];
    const lasts: number[] = [];
    let missed = 0;
    for (let n = 1; n <= ROUNDS; n++) {
      await notify(n);
      await until(() => live().every((c) => c.arrivals.has(n)), 5_000);
      const times = held.map((c) => c.arrivals.get(n)).filter((t) => t !== undefined);
      missed += held.length - times.length;
      deliveries.push(...times.map((t) => t - sent.get(n)!));
      lasts.push(Math.max(...times) - sent.get(n)!);
      await sleep(100);
    }
    const each = spread(deliveries);
    const last = spread(lasts);
    console.log(
      `fan-out, NOTIFY → client, ${ROUNDS} notices × ${held.length} clients: p50 ${ms(each.p50)}, p95 ${ms(each.p95)}, max ${ms(each.max)}; ` +
        `to the last of the ${held.length}: p50 ${ms(last.p50)}, p95 ${ms(last.p95)}, max ${ms(last.max)}; not delivered within 5 s: ${missed}`,
    );
    console.log(`load average after fan-out: ${loadAverage()}`);

    await slowClients(instance, url, headers, held, pool, clusterId);
  } finally {
    for (const client of clients) client.close();
    await pool.end();
    if (instance) await stopInstance(instance);
    await primary.cleanup();
  }
}

/**
 * READERS_IN_FLOOD of the clients stay, SLOW non-reading ones join, and rounds of FLOOD_BATCH notices padded to
 * ~PAD bytes go out (one NOTIFY statement a round) until every slow client is dropped or FLOOD_ROUNDS have gone.
 */
async function slowClients(instance: Instance, url: string, headers: Record<string, string>, held: SseClient[], pool: pg.Pool, clusterId: number): Promise<void> {
  for (const client of held.slice(READERS_IN_FLOOD)) client.close();
  const readers = held.slice(0, READERS_IN_FLOOD);
  await sleep(500);
  const slow = await Promise.all(Array.from({ length: SLOW }, () => openSseClient(url, headers, { read: false })));
  const rssBefore = (await serverUsage(instance)).rssBytes;
  let rssMax = rssBefore;
  const first = 1_000_000;
  let next = first;
  const started = performance.now();
  const lasts: number[] = [];
  let rounds = 0;
  const port = Number(new URL(url).port);
  const stillHeld = async () => {
    const connections = await serverConnections(port);
    return slow.filter((c) => connections.get(c.localPort) === "01");
  };
  let dropAfter: number | undefined;
  for (; rounds < FLOOD_ROUNDS && (await stillHeld()).length > 0; rounds++) {
    const from = next;
    next += FLOOD_BATCH;
    const sentAt = performance.now();
    await pool.query(
      `select pg_notify($1, json_build_object('clusterId', $2::int, 'slug', 'atlas-a3-demo', 'changed', g, 'at', 0, 'pad', repeat('x', $5::int))::text)
       from generate_series($3::int, $4::int) g`,
      [faultChannel, clusterId, from, next - 1, PAD],
    );
    await until(() => readers.every((c) => c.closedAt !== null || c.arrivals.has(next - 1)), 10_000);
    lasts.push(Math.max(...readers.map((c) => c.arrivals.get(next - 1) ?? Infinity)) - sentAt);
    rssMax = Math.max(rssMax, (await serverUsage(instance)).rssBytes);
    if (dropAfter === undefined && (await stillHeld()).length < SLOW) dropAfter = (performance.now() - started) / 1000;
  }
  const seconds = (performance.now() - started) / 1000;
  const dropped = SLOW - (await stillHeld()).length;
  const sentCount = next - first;
  const missing = readers.reduce((sum, c) => sum + sentCount - [...c.arrivals.keys()].filter((n) => n >= first).length, 0);
  const last = spread(lasts);
  const firstDrop = dropAfter === undefined ? "–" : `${dropAfter.toFixed(1)} s`;
  console.log(
    `slow clients: ${SLOW} that never read beside ${readers.length} that do; ${rounds} rounds of ${FLOOD_BATCH} notices of ~${PAD} B in ${seconds.toFixed(1)} s: ` +
      `${dropped} of ${SLOW} dropped by the server (seen in its connection table: a client that does not read cannot tell; the first after ${firstDrop}); readers missed ${missing} of ${sentCount * readers.length}; ` +
      `a round to the last reader: p50 ${ms(last.p50)}, max ${ms(last.max)}; server RSS ${mib(rssBefore)} before, at most ${mib(rssMax)} during`,
  );
  for (const client of slow) client.close();
  console.log(`load average after: ${loadAverage()}`);
}

export const sseBench: BenchSection = {
  name: "sse",
  description: `${CLIENTS} live event streams on one production instance: the cap's refusal, NOTIFY fan-out latency, slow clients, server RSS`,
  run,
};
