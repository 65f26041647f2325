/**
 * `npm run test:faults-injection`: what a database restart and a crashed app process do to clients and data, against
 * the suite's own PostgreSQL (an embedded server in a temporary directory on a port of its own; the machine's shared
 * server is never touched) and the app's route handlers in their own process (./app-server.ts).
 *
 * 1. PostgreSQL stopped and started under load: while it is down every answer is 503 `database_unavailable` with
 *    Retry-After (never a 500), and once it is back every client gets 200 again without an app restart.
 * 2. `kill -9` of the app in the middle of fault-event batches: every acknowledged batch is stored whole, an
 *    unacknowledged one whole or not at all, and re-posting everything stores each event exactly once.
 * 3. `kill -9` of the app in the middle of rank-table saves: every acknowledged revision is there, at most the one
 *    in flight besides, revisions are numbered without gaps and the table points at the newest.
 *
 * Prints the figures of each phase; exits 1 when any check fails.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { connectDatabase, type DatabaseHandle } from "@/db/client";
import { freePort, startEmbeddedPostgres, type EmbeddedServer } from "@/db/embedded";
import { migrate } from "@/db/migrate";
import { systemActor } from "@/db/queries/audit";
import { loadRevisionTexts } from "@/db/queries/rank-tables";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { serverNodeFlags, serverPreloadEnv } from "../server-node-flags";

const log = (line: string) => console.log(`[faults] ${line}`);
const failures: string[] = [];
function check(ok: boolean, what: string): void {
  if (!ok) failures.push(what);
  log(`${ok ? "ok  " : "FAIL"} ${what}`);
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface App {
  base: string;
  child: ChildProcess;
}

async function startApp(databaseUrl: string): Promise<App> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...serverNodeFlags, "--conditions=react-server", "--import", "tsx", "scripts/fault-injection/app-server.ts"],
    // The server's own preloads (peer address, body limits), as scripts/serve.ts gives them to Next.js.
    { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...serverPreloadEnv(), DATABASE_URL: databaseUrl, PORT: String(port), NODE_ENV: "production" } },
  );
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the app process exited (${code}) before listening`)));
    createInterface({ input: child.stdout! }).on("line", (line) => (line === "listening" ? resolve() : console.log(line)));
  });
  child.removeAllListeners("exit");
  return { base: `http://127.0.0.1:${port}`, child };
}

async function killHard(app: App): Promise<void> {
  const exited = new Promise((resolve) => app.child.once("exit", resolve));
  app.child.kill("SIGKILL");
  await exited;
}

interface Answer {
  status: number;
  code?: string;
  retryAfter: string | null;
  body: unknown;
}

async function call(app: App, token: string, method: string, pathAndQuery: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${app.base}${pathAndQuery}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, code: (parsed as { error?: { code?: string } })?.error?.code, retryAfter: response.headers.get("retry-after"), body: parsed };
}

/** A batch of distinct fault events on the A2 demo cluster, named by the source so a re-post is recognised. */
function batch(name: string, size: number, start: number): { name: string; ids: string[]; events: unknown[] } {
  const events = Array.from({ length: size }, (_, i) => ({
    id: `${name}-${i}`,
    source: "api",
    cluster: "atlas-a2-demo",
    kind: i % 3 === 0 ? "hccl-error" : "roce-link-down",
    code: i % 3 === 0 ? "EI0002" : "81078603",
    target: { server: `a2-node${i % 4}`, die: i % 8 },
    beganAt: new Date(start + i * 1000).toISOString(),
    endedAt: new Date(start + i * 1000 + 5000).toISOString(),
  }));
  return { name, ids: events.map((e) => `api:${e.id}`), events };
}

const postBatch = (app: App, token: string, b: ReturnType<typeof batch>) => call(app, token, "POST", "/api/v1/fault-events?atomic=all", b.events);

async function storedCount(pool: import("pg").Pool, ids: string[]): Promise<number> {
  const { rows } = await pool.query<{ n: number }>("select count(*)::int as n from fault_events where id = any($1)", [ids]);
  return rows[0]!.n;
}

/** Phase 1: stop PostgreSQL for `outageMs` while clients post batches and read; start it again; watch them recover. */
async function restartUnderLoad(pg: { server: EmbeddedServer; restart(): Promise<EmbeddedServer> }, databaseUrl: string, token: string, pool: import("pg").Pool) {
  const app = await startApp(databaseUrl);
  const outageMs = 4000;
  const t0 = Date.now();
  let phase = "before" as "before" | "down" | "restarting" | "up";
  let upAt = 0;
  const answers: { phase: typeof phase; at: number; status: number; code?: string; retryAfter: string | null; worker: number }[] = [];
  const batches: { b: ReturnType<typeof batch>; acked: boolean }[] = [];
  let stop = false;
  const worker = async (w: number) => {
    for (let k = 0; !stop; k++) {
      const b = batch(`outage-${w}-${k}`, 200, t0 - 30 * 86_400_000 + (w * 100 + k) * 300_000);
      const entry = { b, acked: false };
      batches.push(entry);
      for (const request of [() => postBatch(app, token, b), () => call(app, token, "GET", "/api/v1/fault-events/health?cluster=atlas-a2-demo")]) {
        const seen = phase;
        const answer = await request().catch((error: unknown) => ({ status: 0, code: String(error), retryAfter: null, body: null }));
        answers.push({ phase: seen === phase ? seen : "restarting", at: Date.now() - t0, status: answer.status, code: answer.code, retryAfter: answer.retryAfter, worker: w });
        if (answer.status === 200 && (answer.body as { counts?: unknown })?.counts) entry.acked = true;
      }
      await sleep(50);
    }
  };
  const workers = [0, 1, 2].map(worker);
  await sleep(2000);
  phase = "restarting";
  await pg.server.stop();
  phase = "down";
  const downAt = Date.now() - t0;
  await sleep(outageMs);
  phase = "restarting";
  pg.server = await pg.restart();
  upAt = Date.now() - t0;
  phase = "up";
  await sleep(4000);
  stop = true;
  await Promise.all(workers);

  const during = answers.filter((a) => a.phase === "down");
  const after = answers.filter((a) => a.phase === "up");
  const firstOk = new Map<number, number>();
  for (const a of after) if (a.status === 200 && !firstOk.has(a.worker)) firstOk.set(a.worker, a.at - upAt);
  const lastFailure = Math.max(-1, ...after.filter((a) => a.status !== 200).map((a) => a.at - upAt));
  log(`restart under load: ${answers.length} requests; PostgreSQL down from ${downAt} ms for ${upAt - downAt} ms`);
  log(`  while down: ${during.length} answers, ${during.filter((a) => a.status === 503).length} × 503, statuses ${[...new Set(during.map((a) => a.status))].join(", ")}`);
  log(`  after the restart: statuses ${[...new Set(after.map((a) => a.status))].join(", ")}; first 200 per client after ${[...firstOk.values()].join(", ")} ms; last non-200 at ${lastFailure} ms; ${after.length} answers`);
  check(during.length > 0, "requests were made while PostgreSQL was down");
  check(during.every((a) => a.status === 503 && a.code === "database_unavailable" && Number(a.retryAfter) > 0), "every answer while PostgreSQL was down was 503 database_unavailable with Retry-After");
  check(answers.every((a) => a.status !== 500 && a.status !== 0), "no 500 and no dropped connection at any time");
  check(firstOk.size === 3, "every client got 200 again after PostgreSQL came back, without restarting the app");
  check(lastFailure < 3000, "the app recovered within 3 s of PostgreSQL accepting connections");
  await verifyBatches(app, token, pool, batches, "restart under load");
  await killHard(app);
}

/** Every acknowledged batch whole, the others whole or absent; a re-post of everything stores each event once. */
async function verifyBatches(app: App, token: string, pool: import("pg").Pool, batches: { b: ReturnType<typeof batch>; acked: boolean }[], label: string) {
  let lost = 0;
  let partial = 0;
  for (const { b, acked } of batches) {
    const stored = await storedCount(pool, b.ids);
    if (acked && stored !== b.ids.length) lost += b.ids.length - stored;
    if (!acked && stored !== 0 && stored !== b.ids.length) partial++;
  }
  let duplicatedOnRepost = 0;
  let createdOnRepost = 0;
  for (const { b, acked } of batches) {
    const again = await postBatch(app, token, b);
    const counts = (again.body as { counts?: { created: number; unchanged: number } }).counts;
    if (again.status !== 200 || !counts) {
      failures.push(`${label}: re-post of ${b.name} answered ${again.status} ${JSON.stringify(again.body).slice(0, 300)}`);
      continue;
    }
    if (acked && counts.created > 0) duplicatedOnRepost += counts.created;
    createdOnRepost += counts.created;
  }
  const all = batches.flatMap(({ b }) => b.ids);
  const total = await storedCount(pool, all);
  const acked = batches.filter((b) => b.acked).length;
  log(`${label}: ${batches.length} batches (${acked} acknowledged, ${all.length} events); lost ${lost}, partial batches ${partial}, created again by the re-post ${duplicatedOnRepost} (acknowledged) / ${createdOnRepost} (all)`);
  check(lost === 0, `${label}: no acknowledged event lost`);
  check(partial === 0, `${label}: no batch stored in part`);
  check(duplicatedOnRepost === 0, `${label}: re-posting acknowledged batches created nothing`);
  check(total === all.length, `${label}: after the re-post every event is stored (${total} of ${all.length})`);
}

/** Phase 2: kill -9 the app while batches are being written, twice. */
async function killMidBatch(databaseUrl: string, token: string, pool: import("pg").Pool) {
  const batches: { b: ReturnType<typeof batch>; acked: boolean }[] = [];
  let kills = 0;
  for (let round = 0; round < 2; round++) {
    const app = await startApp(databaseUrl);
    let killed = false;
    let firstAck: () => void = () => {};
    const acknowledged = new Promise<void>((resolve) => (firstAck = resolve));
    // Four senders posting batches of 500 back to back until the process dies under them.
    const senders = Array.from({ length: 4 }, async (_, w) => {
      for (let k = 0; !killed; k++) {
        const entry = { b: batch(`kill-${round}-${w}-${k}`, 500, Date.now() - 60 * 86_400_000 + ((round * 4 + w) * 100 + k) * 600_000), acked: false };
        batches.push(entry);
        const answer = await postBatch(app, token, entry.b).catch(() => undefined);
        if (!answer) return;
        if (answer.status !== 200) throw new Error(`a batch answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
        entry.acked = true;
        firstAck();
      }
    });
    // Once batches are being acknowledged, so that the kill finds some done and others half-way.
    await Promise.race([acknowledged, sleep(30_000)]);
    await sleep(300 + round * 400);
    killed = true;
    await killHard(app);
    kills++;
    await Promise.all(senders);
  }
  const app = await startApp(databaseUrl);
  log(`kill -9 mid-batch: ${kills} kills with 4 batches of 500 in flight each`);
  await verifyBatches(app, token, pool, batches, "kill -9 mid-batch");
  await killHard(app);
}

/** Phase 3: kill -9 the app while it saves revisions of a rank table. */
async function killMidSave(databaseUrl: string, token: string, { db, pool }: Pick<DatabaseHandle, "db" | "pool">) {
  const text = await readFile(path.resolve("lib/rank-table/fixtures/seed-super-pod.jsonc"), "utf8");
  let app = await startApp(databaseUrl);
  const created = await call(app, token, "POST", "/api/v1/rank-tables", { name: "fault injection", text });
  if (created.status !== 201 && created.status !== 200) throw new Error(`creating the rank table answered ${created.status}: ${JSON.stringify(created.body)}`);
  const id = (created.body as { id: number }).id;
  let revision = (created.body as { revision: number }).revision;
  const acknowledged = new Set<number>([revision]);
  let attempts = 0;
  for (let round = 0; round < 2; round++) {
    let killed = false;
    let firstAck: () => void = () => {};
    const savedOnce = new Promise<void>((resolve) => (firstAck = resolve));
    const saving = (async () => {
      while (!killed) {
        attempts++;
        const answer = await call(app, token, "PUT", `/api/v1/rank-tables/${id}`, { text, comment: `save after ${revision}` }, { "if-match": `"${revision}"` }).catch(() => undefined);
        if (!answer) return;
        if (answer.status !== 200) throw new Error(`a save answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        revision = (answer.body as { revision: number }).revision;
        acknowledged.add(revision);
        firstAck();
      }
    })();
    await Promise.race([savedOnce, sleep(30_000)]);
    await sleep(200 + round * 300);
    killed = true;
    await killHard(app);
    await saving;
    app = await startApp(databaseUrl);
    const current = await call(app, token, "GET", `/api/v1/rank-tables/${id}`);
    revision = (current.body as { revision: number }).revision;
  }
  // Through the loader: a revision saved as a stream is stored gzipped (its `text` column null).
  const rows = await loadRevisionTexts(db, id);
  const { rows: table } = await pool.query<{ revision: number }>("select revision from rank_tables where id = $1", [id]);
  const numbers = rows.map((r) => r.revision);
  const newestAcked = Math.max(...acknowledged);
  const contiguous = numbers.every((n, i) => n === i + 1);
  const complete = rows.every((r) => {
    try {
      JSON.parse(r.text ?? "");
      return true;
    } catch {
      return false;
    }
  });
  log(`kill -9 mid-save: ${attempts} saves tried, ${acknowledged.size} revisions acknowledged, ${rows.length} stored, table at revision ${table[0]?.revision}`);
  check([...acknowledged].every((n) => numbers.includes(n)), "kill -9 mid-save: every acknowledged revision is stored");
  check(contiguous && table[0]?.revision === numbers[numbers.length - 1], "kill -9 mid-save: revisions run 1..n without gaps and the table points at the newest");
  check(numbers.length - newestAcked <= 3, "kill -9 mid-save: at most the save in flight at each kill is stored beyond the acknowledged ones");
  check(complete, "kill -9 mid-save: every stored revision is a whole rank table");
  await killHard(app);
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "rankscope-faults-pg-"));
  const started = Date.now();
  const port = await freePort();
  const start = () => startEmbeddedPostgres({ dataDir, port, log });
  const pg = { server: await start(), restart: start };
  const databaseUrl = pg.server.url();
  // The suite's own connection: it sees the restart too, and reconnects like the app's pool.
  const handle = connectDatabase(databaseUrl, { max: 2 });
  try {
    await migrate(handle.pool);
    await seedDemo(handle.db);
    const { token } = await createApiToken(handle.db, { name: "fault injection", role: "editor" }, systemActor);
    log(`own PostgreSQL on 127.0.0.1:${port} (${dataDir}); set up in ${Date.now() - started} ms`);
    await restartUnderLoad(pg, databaseUrl, token, handle.pool);
    await killMidBatch(databaseUrl, token, handle.pool);
    await killMidSave(databaseUrl, token, handle);
  } finally {
    await handle.pool.end().catch(() => {});
    await pg.server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${failures.length ? `${failures.length} check(s) failed` : "every check passed"}`);
  if (failures.length) {
    for (const failure of failures) log(`failed: ${failure}`);
    process.exitCode = 1;
  }
}

await main();
