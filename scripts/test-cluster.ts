/**
 * `npm run test:cluster`: two Rankscope instances on different ports on one PostgreSQL (a fresh database on
 * TEST_DATABASE_URL's server, or an embedded server without it), as behind a load balancer, and the promises that must hold across
 * them: a session made on one works on the other; the sign-in lock-out and the token write limit count across
 * both; a fault event posted to one reaches an SSE client of the other within 2 s; a rank table saved through one
 * with a stale revision through the other gets 409; one instance killed with SIGKILL mid-batch loses nothing it
 * acknowledged, and a re-post through the other duplicates nothing. Runs the standalone build of `npm run bundle`
 * (.next-bundle; made first when missing). Then, on an embedded PostgreSQL of its own, a restart under load
 * (restartUnderLoad). Not yet (issue 20, item 3): the read replica, retention running once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, startEmbeddedPostgres } from "@/db/embedded";
import { throwawayDatabase } from "./throwaway-database";

const root = process.cwd();
const serverJs = path.join(root, ".next-bundle", "standalone", "server.js");
const log = (line: string) => console.log(`[test:cluster] ${line}`);
const tokenWritesPerMinute = 6;

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`FAILED: ${what}`);
  log(`ok: ${what}`);
}

interface Instance {
  name: string;
  base: string;
  child: ChildProcess;
  output: () => string;
}

async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", "start"], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      RANKSCOPE_STANDALONE_SERVER: serverJs,
      RANKSCOPE_HOST: "127.0.0.1",
      RANKSCOPE_TOKEN_WRITES_PER_MINUTE: String(tokenWritesPerMinute),
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`instance ${name} exited with ${child.exitCode}:\n${output}`);
    const health = await fetch(`${base}/api/health`).catch(() => undefined);
    if (health?.status === 200) {
      log(`instance ${name} is up on ${base}`);
      return { name, base, child, output: () => output };
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`instance ${name} did not answer /api/health within 180 s:\n${output}`);
}

async function stopInstance(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  const exited = new Promise((resolve) => instance.child.on("exit", resolve));
  process.kill(-instance.child.pid!, "SIGTERM");
  await exited;
}

const signIn = (instance: Instance, username: string, password: string) =>
  fetch(`${instance.base}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: instance.base },
    body: JSON.stringify({ username, password }),
  });
const cookieOf = (response: Response) => response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
const me = (instance: Instance, headers: Record<string, string>) => fetch(`${instance.base}/api/v1/me`, { headers, signal: AbortSignal.timeout(10_000) });

const writeHeaders = (instance: Instance, cookie: string, extra: Record<string, string> = {}) => ({ cookie, origin: instance.base, "content-type": "application/json", ...extra });

/** A rank table saved through A, then saved through B from the revision before: 409, and A's save stands. */
async function staleSave(a: Instance, b: Instance, cookie: string): Promise<void> {
  const text = await readFile(path.join(root, "lib/rank-table/fixtures/legacy-mindspore-8p.json"), "utf8");
  const created = await fetch(`${a.base}/api/v1/rank-tables`, { method: "POST", headers: writeHeaders(a, cookie), body: JSON.stringify({ name: "cluster-test", text }) });
  check(created.status === 201 || created.status === 200, `a rank table is created on A (${created.status})`);
  const { id } = (await created.json()) as { id: number };
  const first = created.headers.get("etag")!;
  const save = (instance: Instance, ifMatch: string, comment: string) =>
    fetch(`${instance.base}/api/v1/rank-tables/${id}`, { method: "PUT", headers: writeHeaders(instance, cookie, { "if-match": ifMatch }), body: JSON.stringify({ text, comment }) });
  const onA = await save(a, first, "saved on A");
  check(onA.status === 200, `saved on A from revision ${first} (${onA.status})`);
  const onB = await save(b, first, "saved on B from the old revision");
  check(onB.status === 409, `saved on B from the same, now stale, revision: ${onB.status}`);
}

/**
 * Batches of 1,000 events posted in parallel to A, which is killed with SIGKILL (the supervisor, Next.js and their
 * connections) once the first is acknowledged: every acknowledged batch is stored whole, and posting every batch
 * again to B stores each event exactly once.
 */
async function killMidBatch(a: Instance, b: Instance, cookie: string, databaseUrl: string): Promise<void> {
  const batches = 8;
  const size = 1_000;
  const start = Date.now() - 3_600_000;
  const batch = (n: number) =>
    Array.from({ length: size }, (_, i) => ({
      id: `kill-${n}-${i}`,
      cluster: "atlas-a3-demo",
      kind: "roce-link-down",
      source: "simulator",
      code: "81078603",
      target: { server: `sp0-node0${1 + (i % 4)}`, die: i % 16 },
      beganAt: new Date(start + n * size + i).toISOString(),
      endedAt: new Date(start + n * size + i + 500).toISOString(),
      message: "cluster-kill-test",
    }));
  const post = (instance: Instance, n: number) =>
    fetch(`${instance.base}/api/v1/fault-events?atomic=all`, { method: "POST", headers: writeHeaders(instance, cookie), body: JSON.stringify(batch(n)) })
      .then(async (response) => ({ n, status: response.status, body: (await response.json()) as { counts?: Record<string, number> } }))
      .catch(() => ({ n, status: 0, body: {} as { counts?: Record<string, number> } }));
  let killed = false;
  const answers = await Promise.all(
    Array.from({ length: batches }, (_, n) =>
      post(a, n).then((answer) => {
        if (!killed && answer.status === 200) {
          killed = true;
          process.kill(-a.child.pid!, "SIGKILL");
        }
        return answer;
      }),
    ),
  );
  const acknowledged = answers.filter((r) => r.status === 200).map((r) => r.n);
  check(killed && acknowledged.length < batches, `A killed with SIGKILL mid-way: ${acknowledged.length} of ${batches} batches acknowledged, ${answers.filter((r) => r.status === 0).length} cut off`);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const stored = async () =>
      (await pool.query<{ batch: string; n: number }>("select split_part(id, '-', 2) as batch, count(*)::int as n from fault_events where message = 'cluster-kill-test' group by 1")).rows;
    const before = new Map((await stored()).map((r) => [Number(r.batch), r.n]));
    check(acknowledged.every((n) => before.get(n) === size), `every acknowledged batch is stored whole (${acknowledged.map((n) => `#${n}: ${before.get(n)}`).join(", ")})`);
    check([...before.values()].every((n) => n === size), `no batch is stored in part (${[...before.entries()].map(([n, c]) => `#${n}: ${c}`).join(", ")})`);
    const again = await Promise.all(Array.from({ length: batches }, (_, n) => post(b, n)));
    check(again.every((r) => r.status === 200), `every batch posted again to B is taken (${again.map((r) => r.status).join(" ")})`);
    check(acknowledged.every((n) => again[n]!.body.counts?.unchanged === size), "the acknowledged ones change nothing on the re-post");
    const after = await stored();
    const total = after.reduce((sum, r) => sum + r.n, 0);
    check(total === batches * size, `each event stored once: ${total} rows for ${batches * size} events`);
  } finally {
    await pool.end();
  }
}

/** A directory for an embedded PostgreSQL's data that user postgres can enter (as root it runs as that user). */
async function embeddedDirectory(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rankscope-cluster-pg-"));
  await chmod(dir, 0o755);
  return dir;
}

/** The primary both instances share: a fresh database on TEST_DATABASE_URL's server, or an embedded server. */
async function sharedPrimary(): Promise<{ url: string; cleanup: () => Promise<void> }> {
  if (process.env.TEST_DATABASE_URL) {
    const { env, cleanup } = await throwawayDatabase("rankscope_cluster");
    return { url: env.DATABASE_URL!, cleanup };
  }
  const dir = await embeddedDirectory();
  const server = await startEmbeddedPostgres({ dataDir: path.join(dir, "postgres"), persistent: false });
  log(`TEST_DATABASE_URL is not set: the primary is an embedded PostgreSQL on port ${server.port}`);
  return { url: server.url(), cleanup: async () => (await server.stop(), await rm(dir, { recursive: true, force: true })) };
}

/**
 * PostgreSQL restarted under load, on an embedded server of its own (the shared one may not be restarted): two
 * instances, readers and writers on both; while it is down every request gets an answer within 10 s, a 503
 * `database_unavailable` with Retry-After, never a 500 or a hang; once it is back both instances serve again on
 * their own, without a restart.
 */
async function restartUnderLoad(): Promise<void> {
  const dir = await embeddedDirectory();
  const dataDir = path.join(dir, "postgres");
  let server = await startEmbeddedPostgres({ dataDir, persistent: true });
  const instances: Instance[] = [];
  try {
    const env = { DATABASE_URL: server.url(), RANKSCOPE_SEED_DEMO: "1", RANKSCOPE_DEMO_ACCOUNTS: "1" };
    instances.push(await startInstance("C", env));
    instances.push(await startInstance("D", env));
    const cookie = cookieOf(await signIn(instances[0]!, "editor", "editor-demo-pass"));
    let stop = false;
    const seen: { status: number; retryAfter: string | null; code?: string; ms: number }[] = [];
    const load = instances.flatMap((instance) =>
      [0, 1].map(async (worker) => {
        for (let i = 0; !stop; i++) {
          const started = performance.now();
          const response = await (worker === 0
            ? me(instance, { cookie })
            : fetch(`${instance.base}/api/v1/fault-events`, {
                method: "POST",
                headers: writeHeaders(instance, cookie),
                body: JSON.stringify([{ cluster: "atlas-a3-demo", kind: "roce-link-down", source: "simulator", code: "81078603", target: { server: "sp0-node02", die: i % 16 }, beganAt: new Date().toISOString() }]),
                signal: AbortSignal.timeout(10_000),
              })
          ).catch(() => undefined);
          const ms = performance.now() - started;
          if (!response) {
            seen.push({ status: 0, retryAfter: null, ms });
            continue;
          }
          const body = (await response.json().catch(() => ({}))) as { error?: { code?: string } };
          seen.push({ status: response.status, retryAfter: response.headers.get("retry-after"), code: body.error?.code, ms });
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const port = server.port;
    await server.stop();
    log("PostgreSQL stopped under load");
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const down = seen.length;
    server = await startEmbeddedPostgres({ dataDir, persistent: true, port });
    log(`PostgreSQL started again on port ${port}`);
    const back = Date.now();
    const recovered = new Set<string>();
    while (recovered.size < instances.length && Date.now() - back < 60_000) {
      for (const instance of instances) if ((await me(instance, { cookie }).catch(() => undefined))?.status === 200) recovered.add(instance.name);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    stop = true;
    await Promise.all(load);
    const unavailable = seen.filter((r) => r.status === 503);
    const wrong = seen.filter((r) => ![200, 503].includes(r.status));
    log(`${seen.length} requests under load (${down} before PostgreSQL came back): ${unavailable.length} got 503, slowest ${Math.round(Math.max(...seen.map((r) => r.ms)))} ms`);
    check(unavailable.length > 0 && unavailable.every((r) => r.code === "database_unavailable" && Number(r.retryAfter) > 0), "while PostgreSQL is down the answer is 503 database_unavailable with Retry-After");
    check(wrong.length === 0, `no other answer, no 500, no request without an answer (${wrong.map((r) => `${r.status}${r.code ? ` ${r.code}` : ""}`).join(", ") || "none"})`);
    check(Math.max(...seen.map((r) => r.ms)) < 10_000, "no request hung (every answer within 10 s)");
    check(recovered.size === instances.length, `both instances serve again on their own, ${((Date.now() - back) / 1000).toFixed(1)} s after PostgreSQL was back`);
  } finally {
    await Promise.allSettled(instances.map(stopInstance));
    await server.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!existsSync(serverJs)) {
    log("no standalone build yet: running npm run bundle");
    const code = await new Promise<number | null>((resolve) => spawn("npm", ["run", "bundle"], { stdio: "inherit" }).on("exit", resolve));
    if (code !== 0) throw new Error("npm run bundle failed");
  }
  const database = await sharedPrimary();
  const instances: Instance[] = [];
  try {
    // The first instance migrates and seeds the demo with its accounts; the second finds everything in place.
    const env = { DATABASE_URL: database.url, RANKSCOPE_SEED_DEMO: "1", RANKSCOPE_DEMO_ACCOUNTS: "1" };
    instances.push(await startInstance("A", env));
    instances.push(await startInstance("B", env));
    const [a, b] = instances as [Instance, Instance];

    // Sessions live in PostgreSQL.
    const signedIn = await signIn(a, "viewer", "viewer-demo-pass");
    check(signedIn.status === 200, "sign-in on A");
    const viewer = cookieOf(signedIn);
    check((await me(b, { cookie: viewer })).status === 200, "A's session works on B");
    const out = await fetch(`${b.base}/api/auth/sign-out`, { method: "POST", headers: { cookie: viewer, origin: b.base } });
    check(out.status === 204 && (await me(a, { cookie: viewer })).status === 401, "signed out on B, the session is over on A too");

    // The sign-in lock-out: 5 failures of a username from an address are free, the 6th locks (db/queries/sign-in-throttle.ts).
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await signIn(i % 2 ? b : a, "editor", `wrong-${i}`)).status);
    check(JSON.stringify(statuses) === JSON.stringify([401, 401, 401, 401, 401, 401, 429]), `failures alternating A/B lock the account at the 7th try: ${statuses.join(" ")}`);
    check((await signIn(a, "editor", "editor-demo-pass")).status === 429 && (await signIn(b, "editor", "editor-demo-pass")).status === 429, "the right password is locked out on both");

    // The token write limit (RANKSCOPE_TOKEN_WRITES_PER_MINUTE=6 on both): counted in PostgreSQL.
    const admin = cookieOf(await signIn(a, "admin", "admin-demo-pass"));
    const created = await fetch(`${a.base}/api/v1/tokens`, {
      method: "POST",
      headers: { cookie: admin, origin: a.base, "content-type": "application/json" },
      body: JSON.stringify({ name: "cluster test feeder", role: "editor" }),
    });
    check(created.status === 201 || created.status === 200, `a token is created on A (${created.status})`);
    const token = ((await created.json()) as { token: string }).token;
    const writes: number[] = [];
    for (let i = 0; i <= tokenWritesPerMinute; i++) {
      const target = i % 2 ? b : a;
      writes.push((await fetch(`${target.base}/api/auth/sign-out`, { method: "POST", headers: { authorization: `Bearer ${token}` } })).status);
    }
    // Sign-out is a write that needs no data: a token past the limit check gets 400 from it.
    check(writes.slice(0, tokenWritesPerMinute).every((s) => s === 400) && writes.at(-1) === 429, `token writes alternating A/B: the 7th of 6 a minute is refused: ${writes.join(" ")}`);

    // Live events: a batch posted to A reaches an SSE client of B (LISTEN/NOTIFY).
    const controller = new AbortController();
    const stream = await fetch(`${b.base}/api/v1/events?cluster=atlas-a3-demo`, { headers: { cookie: admin }, signal: controller.signal });
    check(stream.status === 200, "an SSE client connects to B");
    const reader = stream.body!.getReader();
    const received = (async () => {
      const decoder = new TextDecoder();
      let text = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return undefined;
        text += decoder.decode(value, { stream: true });
        if (text.includes("event: faults")) return performance.now();
      }
    })();
    const postedAt = performance.now();
    const posted = await fetch(`${a.base}/api/v1/fault-events`, {
      method: "POST",
      headers: { cookie: admin, origin: a.base, "content-type": "application/json" },
      body: JSON.stringify([
        { cluster: "atlas-a3-demo", kind: "roce-link-down", source: "simulator", code: "81078603", target: { server: "sp0-node01", die: 1 }, beganAt: new Date().toISOString() },
      ]),
    });
    check(posted.status === 200, `a fault event is posted to A (${posted.status})`);
    const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 2_000));
    const at = await Promise.race([received, timeout]);
    controller.abort();
    check(at !== undefined, `B's SSE client hears of it within 2 s (${at === undefined ? "not heard" : `${Math.round(at - postedAt)} ms after the post began`})`);

    await staleSave(a, b, admin);
    await killMidBatch(a, b, admin, database.url);
  } finally {
    await Promise.allSettled(instances.map(stopInstance));
    await database.cleanup();
  }
  await restartUnderLoad();
  log("passed");
}

main().catch((error: unknown) => {
  console.error(`[test:cluster] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
