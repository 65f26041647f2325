/**
 * The checks of `npm run test:cluster` for the read replica (DATABASE_READ_URL, issue 20 item 2) and for retention
 * running once across the instances (item 1).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { gzipJsonAccept } from "@/lib/gzip-answer";
import { check, log, root, writeHeaders, type Instance } from "./instances";
import type { ReplicatedDatabase } from "./replica";

const cluster = "atlas-a3-demo";
const readSource = "rankscope-read-source";
const dataAsOf = "rankscope-data-as-of";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The last ten minutes' timeline: short enough that no event of them is left out by the row limit. */
const timelineUrl = (instance: Instance) => `${instance.base}/api/v1/fault-events?${new URLSearchParams({ cluster, from: String(Date.now() - 600_000), to: String(Date.now() + 60_000) })}`;
const heavyReads = (instance: Instance) => [
  timelineUrl(instance),
  `${instance.base}/api/v1/fault-events/stats?${new URLSearchParams({ cluster, from: String(Date.now() - 7 * 86_400_000), to: String(Date.now()) })}`,
  `${instance.base}/api/v1/clusters/${cluster}/topology`,
  `${instance.base}/api/v1/clusters/${cluster}/topology/search?q=sp0-node01`,
  `${instance.base}/api/v1/clusters`,
  `${instance.base}/api/v1/rank-tables`,
];

/** The cookie jar of one caller: what it was given, including the WAL position of its last write. */
function jar(initial: string): { cookie: () => string; take: (response: Response) => void } {
  const cookies = new Map(initial.split("; ").filter(Boolean).map((c) => [c.slice(0, c.indexOf("=")), c] as const));
  return {
    cookie: () => [...cookies.values()].join("; "),
    take: (response) => {
      for (const set of response.headers.getSetCookie()) {
        const pair = set.split(";")[0]!;
        cookies.set(pair.slice(0, pair.indexOf("=")), pair);
      }
    },
  };
}

/**
 * Heavy reads on both instances come from the replica (the answer says so, and the replica's transaction count and
 * sessions named rankscope-read show it); with the replica's replay paused, a caller who wrote reads its write (from
 * the primary), on the API and on a page, while another caller reads the replica with "data as of" before the write.
 */
export async function readsFromReplica(a: Instance, b: Instance, writerCookie: string, readerCookie: string, database: ReplicatedDatabase): Promise<void> {
  const before = await database.replicaTransactions();
  const sources: string[] = [];
  // A first read may find open faults to judge again, which the primary does (and answers).
  for (let round = 0; round < 3; round++) {
    for (const instance of [a, b]) {
      for (const url of heavyReads(instance)) {
        const response = await fetch(url, { headers: { cookie: readerCookie } });
        check(response.status === 200, `GET ${url.slice(instance.base.length, instance.base.length + 48)}… on ${instance.name}: 200`);
        if (round === 2) sources.push(response.headers.get(readSource) ?? "none");
        await response.arrayBuffer();
      }
    }
  }
  check(sources.every((s) => s === "replica"), `the heavy reads of both instances come from the replica (${sources.join(" ")})`);
  let after = before;
  for (let i = 0; i < 20 && after <= before; i++) {
    await sleep(250); // PostgreSQL publishes a backend's statistics within a second
    after = await database.replicaTransactions();
  }
  check(after > before, `the replica's transaction count rose by ${after - before} during those reads`);

  const writer = jar(writerCookie);
  await database.pauseReplay(true);
  log("replay paused on the replica");
  try {
    const posted = await fetch(`${a.base}/api/v1/fault-events`, {
      method: "POST",
      headers: writeHeaders(a, writer.cookie()),
      body: JSON.stringify([{ cluster, kind: "npu-chip-fault", source: "simulator", code: "80E18402", target: { server: "sp0-node02", die: 3 }, beganAt: new Date().toISOString() }]),
    });
    writer.take(posted);
    // The stored id (db/queries/faults/prepare.ts derives it from the event).
    const id = ((await posted.json()) as { items: { id?: string }[] }).items[0]?.id;
    check(posted.status === 200 && /rankscope-written=[0-9A-F]+\/[0-9A-F]+/.test(writer.cookie()), `an event posted to A (${posted.status}) gives its writer the primary's WAL position (${writer.cookie().match(/rankscope-written=[^;]+/)?.[0]})`);
    const name = `replica-rw-${Date.now()}`;
    const created = await fetch(`${a.base}/api/v1/rank-tables`, {
      method: "POST",
      headers: writeHeaders(a, writer.cookie()),
      body: JSON.stringify({ name, text: await readFile(path.join(root, "lib/rank-table/fixtures/legacy-mindspore-8p.json"), "utf8") }),
    });
    writer.take(created);
    check(created.status === 201 || created.status === 200, `a rank table saved through A (${created.status})`);
    await sleep(1_500); // the replica now lags by more than the hint's second

    const own = await fetch(timelineUrl(b), { headers: { cookie: writer.cookie() } });
    const ownEvents = ((await own.json()) as { events: { id: string }[] }).events;
    check(ownEvents.some((e) => e.id === id) && own.headers.get(readSource) === "primary", `the writer reads its event back through B (from the ${own.headers.get(readSource)}, ${ownEvents.length} events in the last 10 minutes)`);
    const page = await fetch(`${b.base}/rank-tables`, { headers: { cookie: writer.cookie() } });
    check(page.status === 200 && (await page.text()).includes(name), "the writer's rank table list page on B shows the table it just saved");

    const other = await fetch(timelineUrl(b), { headers: { cookie: readerCookie } });
    const otherEvents = ((await other.json()) as { events: { id: string }[] }).events;
    const asOf = other.headers.get(dataAsOf);
    check(
      other.headers.get(readSource) === "replica" && asOf !== null && Date.parse(asOf) < Date.now() - 1_000 && !otherEvents.some((e) => e.id === id),
      `another caller reads the replica's timeline on B without the event, dated: data as of ${asOf}`,
    );
    const topology = await fetch(`${a.base}/api/v1/clusters/${cluster}/topology`, { headers: { cookie: readerCookie } });
    check(topology.status === 200 && topology.headers.get(dataAsOf) !== null, `the topology view on A says so too (data as of ${topology.headers.get(dataAsOf)})`);
  } finally {
    await database.pauseReplay(false);
    log("replay resumed");
  }
  let caughtUp: Response | undefined;
  for (let i = 0; i < 40; i++) {
    caughtUp = await fetch(timelineUrl(b), { headers: { cookie: readerCookie } });
    if (caughtUp.headers.get(readSource) === "replica" && caughtUp.headers.get(dataAsOf) === null) break;
    await sleep(250);
  }
  check(caughtUp?.headers.get(readSource) === "replica" && caughtUp.headers.get(dataAsOf) === null, "once replay resumes, the replica answers again with no hint");
}

/**
 * A day's timeline asked of A (computed there, on the replica) is served by B from the answers the instances share
 * (shared_fault_answers on the primary: server/faults/read-cache.ts) without computing it again: the stored row is
 * the same before and after B's read, and so are the bytes. A window of its own each try (a key nobody asked yet); a
 * try is repeated when a batch committed in between (B heard it: it must compute) or the replica was not there yet.
 */
export async function sharedAnswerAcross(a: Instance, b: Instance, readerCookie: string, primaryUrl: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: primaryUrl, max: 1 });
  try {
    for (let attempt = 1; ; attempt++) {
      const to = Date.now() + 60_000;
      const query = new URLSearchParams({ cluster, from: String(to - 86_400_000), to: String(to) });
      const stored = async () =>
        (await pool.query<{ at: string }>("select computed_at::text as at from shared_fault_answers where key = $1", [`timeline?${query}`])).rows[0]?.at;
      const timed = async (instance: Instance) => {
        const started = performance.now();
        const response = await fetch(`${instance.base}/api/v1/fault-events?${query}`, { headers: { cookie: readerCookie, accept: gzipJsonAccept } });
        const bytes = Buffer.from(await response.arrayBuffer());
        return { status: response.status, bytes, ms: Math.round(performance.now() - started), source: response.headers.get(readSource) };
      };
      const onA = await timed(a);
      const computed = await stored();
      const onB = await timed(b);
      const after = await stored();
      const served =
        onA.status === 200 && onB.status === 200 && onA.source === "replica" && computed !== undefined && computed === after && onA.bytes.equals(onB.bytes);
      if (served || attempt === 5) {
        check(served, `a day's timeline computed on A (by the ${onA.source}, ${onA.ms} ms, ${onA.bytes.length} bytes gzipped) is served by B from the shared answer (${onB.ms} ms), not computed again (try ${attempt})`);
        return;
      }
      await sleep(1_000);
    }
  } finally {
    await pool.end();
  }
}

/** The replica stopped: both instances answer every heavy read from the primary, and say so in their log once. */
export async function replicaDown(a: Instance, b: Instance, readerCookie: string, database: ReplicatedDatabase): Promise<void> {
  await database.stopReplica();
  log("replica stopped");
  const statuses: string[] = [];
  for (let round = 0; round < 2; round++) {
    for (const instance of [a, b]) {
      for (const url of heavyReads(instance)) {
        const response = await fetch(url, { headers: { cookie: readerCookie }, signal: AbortSignal.timeout(15_000) });
        statuses.push(`${response.status}/${response.headers.get(readSource)}`);
        await response.arrayBuffer();
      }
    }
  }
  check(statuses.every((s) => s === "200/primary"), `with the replica down every read is answered from the primary (${[...new Set(statuses)].join(", ")})`);
  const said = [a, b].map((instance) => instance.output().split("\n").filter((line) => line.includes("read replica (DATABASE_READ_URL) unreachable")).length);
  check(said.every((n) => n === 1), `each instance said once that the replica is unreachable (${said.join(", ")})`);
}

/**
 * Retention every 3 s on both instances (RANKSCOPE_RETENTION_INTERVAL_MS): events past a newly shortened retention
 * are archived once, by whichever instance holds the advisory lock; the instances' logs add up to the archive.
 */
export async function retentionOnce(a: Instance, b: Instance, adminCookie: string, primaryUrl: string): Promise<void> {
  const events = 500;
  const ended = Date.now() - 200 * 86_400_000;
  const posted = await fetch(`${a.base}/api/v1/fault-events`, {
    method: "POST",
    headers: writeHeaders(a, adminCookie),
    body: JSON.stringify(
      Array.from({ length: events }, (_, i) => ({
        id: `retention-${i}`,
        cluster,
        kind: "roce-link-down",
        source: "simulator",
        code: "81078603",
        target: { server: `sp0-node0${1 + (i % 4)}`, die: i % 16 },
        beganAt: new Date(ended - 60_000 - i * 1_000).toISOString(),
        endedAt: new Date(ended - i * 1_000).toISOString(),
        message: "cluster-retention-test",
      })),
    ),
  });
  check(posted.status === 200, `${events} events that ended 200 days ago are posted (${posted.status})`);
  const settingsUrl = `${b.base}/api/v1/fault-events/settings?cluster=${cluster}`;
  const current = await fetch(settingsUrl, { headers: { cookie: adminCookie } });
  const { escalation, version } = (await current.json()) as { escalation: unknown; version: string };
  const put = await fetch(settingsUrl, {
    method: "PUT",
    headers: writeHeaders(b, adminCookie, { "if-match": `"${version}"` }),
    body: JSON.stringify({ escalation, retentionDays: 100, retentionMode: "archive" }),
  });
  check(put.status === 200, `retention set to 100 days, archive, through B (${put.status})`);
  const pool = new pg.Pool({ connectionString: primaryUrl, max: 1 });
  try {
    const counts = async () =>
      (
        await pool.query<{ kept: number; archived: number; once: boolean; all: number }>(
          `select (select count(*)::int from fault_events where message = 'cluster-retention-test') as kept,
             (select count(*)::int from fault_event_archive where message = 'cluster-retention-test') as archived,
             (select count(*) = count(distinct id) from fault_event_archive) as once,
             (select count(*)::int from fault_event_archive) as all`,
        )
      ).rows[0]!;
    let now = await counts();
    for (let i = 0; i < 60 && (now.kept > 0 || now.archived < events); i++) {
      await sleep(500);
      now = await counts();
    }
    check(now.kept === 0 && now.archived === events && now.once, `every event past retention is archived, once (${now.archived} archived, ${now.kept} left)`);
    await sleep(6_000); // two more runs on each instance: nothing left to do
    const logged = [a, b].map((instance) =>
      instance
        .output()
        .split("\n")
        .map((line) => /retention: atlas-a3-demo: archived (\d+) fault events/.exec(line)?.[1])
        .filter((n): n is string => n !== undefined)
        .reduce((sum, n) => sum + Number(n), 0),
    );
    const total = (await counts()).all;
    check(logged[0]! + logged[1]! === total, `the instances' logs account for the archive exactly: A archived ${logged[0]}, B ${logged[1]}, the archive holds ${total}`);
  } finally {
    await pool.end();
  }
}
