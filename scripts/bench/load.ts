/**
 * `npm run bench -- load`: 100 simulated viewers browsing while fault events are ingested, on one and on two
 * production instances (cluster/instances.ts: the build productionBuild() finds) on one embedded PostgreSQL.
 *
 * - Viewers: each has its own session (the demo viewer, signed in 100 times) and loads a page at a time with the API
 *   calls the page makes, in parallel as the browser does: the topology (the cluster view and the health of its dies),
 *   the faults page (the last 24 h's timeline and statistics) or a list (clusters, rank tables, jobs); then thinks
 *   0.5–1.5 s. Instances are taken in turn.
 * - Ingest: batches of 1,000 events (the ingest bench's, scripts/bench/fault-ingest.ts) posted as device plugins
 *   do, POST /api/v1/fault-events with an API token, paced to TARGET events/s by FEEDERS senders spread over the
 *   instances; when the servers are slower, the achieved rate is what they took. A batch refused with 429 (the
 *   instance's ingestion bound, server/faults/ingest-admission.ts) is sent again after its Retry-After, as a device
 *   plugin does; the sender takes no other batch meanwhile.
 *
 * - The batches are posted with `Prefer: respond-async` (LOAD_BENCH_ASYNC=0: without), as a device plugin at this
 *   scale does: answered 202 once stored in the inbox, judged by the instances' inbox judge (scripts/inbox-judge.ts).
 *   So that an inbox that only grows cannot pass for throughput, the events judged per second (accepted, less what
 *   the inbox grew by: GET /api/v1/fault-events/inbox at the start and the end) and the judge's lag at the end (the
 *   oldest unjudged batch's age) are printed too, and how long the inbox took to empty once the feed stopped.
 *
 * Prints, per setup, p50/p95 per endpoint and for every viewer call together, the accepted events/s and the batches
 * refused, as a table, with the CPU each side used (the instances, PostgreSQL, this process) and the load average: on
 * a shared machine that says what limits the figures.
 * LOAD_BENCH_SECONDS sets a phase's measured length (30); LOAD_BENCH_CPU_PROFILE=<dir> writes the instances' V8 CPU
 * profiles there (RANKSCOPE_CPU_PROFILE_DIR) and sums them up (cpu-profile.ts). Asserts nothing.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { cookieOf, productionBuild, serverUsage, embeddedPrimary, signIn, startInstance, stopInstance, type Instance } from "../cluster/instances";
import { postgresCpuMs, processTicks, ticksPerSecond } from "../proc-stats";
import { summarizeProfiles } from "./cpu-profile";
import { batchOf } from "./fault-ingest";
import type { BenchSection } from "./index";
import { printTable, type Backlog, type Phase } from "./load-report";
import { ASYNC, BATCH, DRAIN_LIMIT_SECONDS, FEEDERS, ingestEndpoint, pageCalls, SECONDS, TARGET, VIEWERS, WARM_UP_SECONDS } from "./load-workload";
import { loadAverage } from "./percentiles";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function backlogOf(instance: Instance, token: string): Promise<Backlog> {
  const response = await fetch(`${instance.base}/api/v1/fault-events/inbox`, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`GET /api/v1/fault-events/inbox answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Backlog;
}

/** Seconds until the inbox is empty (checked every 0.5 s), or null past DRAIN_LIMIT_SECONDS. */
async function drained(instance: Instance, token: string): Promise<number | null> {
  const began = performance.now();
  while (performance.now() - began < DRAIN_LIMIT_SECONDS * 1000) {
    if ((await backlogOf(instance, token)).events === 0) return (performance.now() - began) / 1000;
    await sleep(500);
  }
  return null;
}

/** Viewers and feeders against `instances` for WARM_UP_SECONDS, then SECONDS measured. */
/** `judges`: every instance running, whichever the phase uses: the inbox judge of any of them may be the one judging. */
async function phase(instances: Instance[], judges: Instance[], cookies: string[], token: string, dataDir: string | undefined, nextBody: () => string): Promise<Phase> {
  const latencies = new Map<string, number[]>();
  const failures = new Map<string, number>();
  let measuring = false;
  let stop = false;
  let events = 0;
  let refused = 0;
  // A call counts when it started in the measured window, however long it took; events when acknowledged in it.
  const note = (endpoint: string, started: number, ok: boolean, counted: boolean) => {
    if (!counted) return;
    if (ok) (latencies.get(endpoint) ?? latencies.set(endpoint, []).get(endpoint)!).push(performance.now() - started);
    else failures.set(endpoint, (failures.get(endpoint) ?? 0) + 1);
  };
  /** The call's answer: its status (0: none) and Retry-After. A 429 is not a failure of the ingest endpoint: counted apart. */
  const call = async (instance: Instance, endpoint: string, url: string, init: RequestInit) => {
    const started = performance.now();
    const counted = measuring;
    const response = await fetch(`${instance.base}${url}`, { ...init, signal: AbortSignal.timeout(120_000) }).catch(() => undefined);
    const status = response?.status ?? 0;
    await response?.arrayBuffer().catch(() => undefined);
    if (status === 429 && endpoint === ingestEndpoint) {
      if (counted) refused++;
    } else note(endpoint, started, status === 200 || (status === 202 && endpoint === ingestEndpoint), counted);
    return { status, retryAfter: Number(response?.headers.get("retry-after") ?? 1) };
  };

  let turn = 0;
  const viewer = async (cookie: string) => {
    await sleep(Math.random() * 1000);
    while (!stop) {
      const instance = instances[turn++ % instances.length]!;
      const calls = pageCalls(Date.now());
      const page = calls[Math.floor(Math.random() * calls.length)]!;
      await Promise.all(page.map(([endpoint, url, accept]) => call(instance, endpoint, url, { headers: { cookie, accept: accept ?? "application/json" } })));
      await sleep(500 + Math.random() * 1000);
    }
  };

  // Paced: batch k is due at k / (TARGET / BATCH) s; a sender takes the next due batch when it is free.
  const started = performance.now();
  let sent = 0;
  const feeder = async (index: number) => {
    const instance = instances[index % instances.length]!;
    while (!stop) {
      const due = started + (sent * BATCH * 1000) / TARGET;
      sent++;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      if (stop) break;
      const body = nextBody();
      for (;;) {
        const answer = await call(instance, ingestEndpoint, "/api/v1/fault-events", {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...(ASYNC ? { prefer: "respond-async" } : {}) },
          body,
        });
        if (answer.status === (ASYNC ? 202 : 200) && measuring) events += BATCH;
        if (answer.status !== 429 || stop) break;
        await sleep(answer.retryAfter * 1000);
      }
    }
  };

  const work = [...cookies.map(viewer), ...Array.from({ length: FEEDERS }, (_, i) => feeder(i))];
  await sleep(WARM_UP_SECONDS * 1000);
  const cpu = async () =>
    process.platform === "linux"
      ? {
          instances: (await Promise.all(instances.map(async (i) => (await serverUsage(i)).cpuMs))).reduce((a, b) => a + b, 0),
          supervisors: (await Promise.all(judges.map(async (i) => ((await processTicks(i.child.pid!)) * 1000) / ticksPerSecond))).reduce((a, b) => a + b, 0),
          postgres: dataDir ? await postgresCpuMs(dataDir) : 0,
          bench: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
        }
      : null;
  const before = await cpu();
  const inboxStart = ASYNC ? await backlogOf(instances[0]!, token) : null;
  measuring = true;
  const began = performance.now();
  await sleep(SECONDS * 1000);
  measuring = false;
  const seconds = (performance.now() - began) / 1000;
  const inboxEnd = ASYNC ? await backlogOf(instances[0]!, token) : null;
  const after = await cpu();
  const load = loadAverage();
  stop = true;
  await Promise.all(work);
  const inbox = inboxStart && inboxEnd ? { start: inboxStart, end: inboxEnd, drainSeconds: await drained(instances[0]!, token) } : null;
  const cores = (a: number, b: number) => (b - a) / 1000 / seconds;
  return {
    latencies,
    failures,
    events,
    refused,
    seconds,
    load,
    inbox,
    cpu: before && after ? { instances: cores(before.instances, after.instances), supervisors: cores(before.supervisors, after.supervisors), postgres: cores(before.postgres, after.postgres), bench: cores(before.bench, after.bench) } : null,
  };
}

/** The instances' ingestion bound as set here (the instances inherit this environment), else the server's defaults. */
const ingestBound = () =>
  ["RANKSCOPE_INGEST_CONCURRENCY", "RANKSCOPE_INGEST_QUEUE", "RANKSCOPE_INGEST_WAIT_MS", "RANKSCOPE_INGEST_EVENTS_PER_SECOND", "RANKSCOPE_INBOX_EVENTS_PER_SECOND", "RANKSCOPE_INBOX_MAX_EVENTS"].map((name) => `${name}=${process.env[name] ?? "(default)"}`).join(" ");

async function run(): Promise<void> {
  const build = await productionBuild();
  const primary = await embeddedPrimary();
  const instances: Instance[] = [];
  const profiles = process.env.LOAD_BENCH_CPU_PROFILE;
  if (profiles) await mkdir(profiles, { recursive: true });
  try {
    const env = {
      ...build,
      DATABASE_URL: primary.url,
      RANKSCOPE_SEED_DEMO: "1",
      RANKSCOPE_DEMO_ACCOUNTS: "1",
      // 100 viewers sign in from one address, and one token feeds 20 batches a second.
      RANKSCOPE_SIGN_INS_PER_MINUTE: "10000",
      RANKSCOPE_TOKEN_WRITES_PER_MINUTE: "1000000",
      ...(profiles ? { RANKSCOPE_CPU_PROFILE_DIR: path.resolve(profiles) } : {}),
    };
    instances.push(await startInstance("A", env));
    instances.push(await startInstance("B", env));
    const [a] = instances as [Instance, Instance];
    const cookies: string[] = [];
    for (let i = 0; i < VIEWERS; i++) cookies.push(cookieOf(await signIn(instances[i % 2]!, "viewer", "viewer-demo-pass")));
    const admin = cookieOf(await signIn(a, "admin", "admin-demo-pass"));
    const created = await fetch(`${a.base}/api/v1/tokens`, {
      method: "POST",
      headers: { cookie: admin, origin: a.base, "content-type": "application/json" },
      body: JSON.stringify({ name: "load bench feeder", role: "editor" }),
    });
    const { token } = (await created.json()) as { token: string };
    // Distinct events 50 ms apart from 20 h ago on: the viewers' 24-hour window sees them arrive.
    const start = Date.now() - 20 * 3_600_000;
    let batch = 0;
    const nextBody = () => JSON.stringify(batchOf(batch++, start, 50));
    console.log(
      `${VIEWERS} viewers (one session each, 0.5–1.5 s between pages) and ${FEEDERS} senders of ${BATCH.toLocaleString("en-US")}-event batches${ASYNC ? " (Prefer: respond-async)" : ""} paced to ${TARGET.toLocaleString("en-US")} events/s; ` +
        `${WARM_UP_SECONDS} s warm-up, ${SECONDS} s measured per setup; ingestion bound per instance: ${ingestBound()}; load average before: ${loadAverage()}`,
    );
    const setups = [];
    setups.push({ name: "1 instance", phase: await phase([a], instances, cookies, token, primary.dataDir, nextBody) });
    setups.push({ name: "2 instances", phase: await phase(instances, instances, cookies, token, primary.dataDir, nextBody) });
    printTable(setups);
  } finally {
    await Promise.allSettled(instances.map(stopInstance));
    await primary.cleanup();
  }
  if (profiles) await summarizeProfiles(profiles);
}

export const loadBench: BenchSection = {
  name: "load",
  description: `${VIEWERS} viewers browsing while fault events are ingested (target ${TARGET.toLocaleString("en-US")}/s), on one and on two production instances`,
  run,
};
