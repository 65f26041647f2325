/**
 * `npm run test:hostile` (issue 13): hostile input against a real production server. Builds the shared standalone build
 * (.next-e2e, scripts/production-build.ts) when it is missing or older than the sources (CI runs it after `npm test`,
 * which built it), serves it with scripts/serve.ts on a throwaway database, signs in as the demo admin to mint an
 * editor token, then sends every JSON endpoint (found from app/api's route.ts files) deep nesting, huge arrays of the
 * wrong type, NUL and lone surrogates, invalid UTF-8, over-limit and chunked bodies and wrong content types, plus
 * hostile query strings to every method, and issue 13's probe (three million zeros to the validator). Every answer must
 * be a 4xx in the error shape (or, for the validator, a bounded report) within 45 s. All of it is sent twice: the first
 * round warms the server up (see main); during the second /api/health, polled from its own thread, must answer within
 * 100 ms throughout (or, for a few slow polls, again when the requests around them are sent again: sentAgain),
 * and afterwards the server's memory must come back to within 20% of where it was after the first (or stop growing).
 * (The 16-32 MB chunked bodies to the large-body routes are what tested that bound: their bodies stream past
 * proxy.ts to the handler and, when large, to the rank-table worker; see ARCHITECTURE.md "A request".)
 * Prints the figures; exits 1 when any check fails. `--reuse-build` serves the existing build without the freshness
 * check; `--probe-only` sends only the probe.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { freePort } from "@/db/embedded";
import { lockCheckout } from "../e2e-lock";
import { parentPid, statusKb } from "../proc-stats";
import { buildStandalone, sharedDistDir as distDir, standaloneBuilt, standaloneServer } from "../production-build";
import { throwawayDatabase } from "../throwaway-database";
import { healthProbe, isErrorShape, send, type Answer, type HealthFigures } from "./http";
import { bodyAttacks, queryAttacks, zerosTable } from "./payloads";
import { apiEndpoints, type Endpoint } from "./routes";

/** Longer than the validation worker's own 30 s limit, so a job it stops still answers (413) within the bound. */
const answerTimeoutMs = 45_000;
const healthLimitMs = 100;
const memoryTolerance = 0.2;
/** Past the bound, how much more (of the baseline) one more round may add before the growth counts as a leak. */
const regrowth = 0.05;

/** The newest modification time of the sources a build depends on. */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const dir of ["app", "components", "db", "i18n", "lib", "messages", "server"]) walk(dir);
  for (const file of ["proxy.ts", "next.config.ts", "package.json"]) newest = Math.max(newest, statSync(file).mtimeMs);
  return newest;
}

/** A field of a process's /proc status, in MB (Linux). */
function statusMb(pid: number, field: Parameters<typeof statusKb>[1]): number {
  return statusKb(readFileSync(`/proc/${pid}/status`, "utf8"), field) / 1024;
}

/** Resident memory of a process, in MB. */
const rssMb = (pid: number): number => statusMb(pid, "VmRSS");

/**
 * A process's own memory, in MB: its anonymous pages, resident or swapped (the heap and buffers, where a leak grows).
 * Not its resident size: that also counts the pages of the files it maps (node, Next's code), which the kernel may
 * drop and read again at any time (this VM's DAMON reclaim did, mid-run: a baseline of 169 MB against the 285-296 MB
 * of other runs, and the check failed on a server that had not grown).
 */
const ownMemoryMb = (pid: number): number => statusMb(pid, "RssAnon") + statusMb(pid, "VmSwap");

/** The Next.js server under scripts/serve.ts (its child running the standalone server.js). */
function nextServerPid(servePid: number): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (parentPid(readFileSync(`/proc/${entry}/stat`, "utf8")) === servePid && readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("next")) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}

/**
 * The server's own memory (ownMemoryMb) once it has settled: after 6 s (the validation worker exits 5 s after its last
 * job) the lowest of one reading a second for up to `seconds` (V8 collects and shrinks its heap when the process is
 * idle), or the first reading at or under `enough`.
 */
async function settledMemory(base: string, pid: number, seconds: number, enough = 0): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 6000));
  let lowest = ownMemoryMb(pid);
  for (let second = 0; second < seconds && lowest > enough; second++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await send(base, { method: "GET", path: "/api/health" }, 5000);
    lowest = Math.min(lowest, ownMemoryMb(pid));
  }
  return lowest;
}

async function waitForHealth(base: string, server: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt++) {
    if (server.exitCode !== null) throw new Error("the server exited before it answered /api/health");
    const answer = await send(base, { method: "GET", path: "/api/health" }, 5000);
    if (answer.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the server did not answer /api/health within 2 minutes");
}

/** Signs in as the demo admin and mints an editor token. */
async function setUp(base: string): Promise<string> {
  const signIn = await send(base, { method: "POST", path: "/api/auth/sign-in", headers: { "content-type": "application/json", origin: base }, body: Buffer.from(JSON.stringify({ username: "admin", password: "admin-demo-pass" })) }, answerTimeoutMs);
  if (signIn.status !== 200) throw new Error(`sign-in as the demo admin failed: ${signIn.status} ${signIn.text}`);
  const cookie = await cookieOf(base);
  const created = await send(base, { method: "POST", path: "/api/v1/tokens", headers: { "content-type": "application/json", origin: base, cookie }, body: Buffer.from(JSON.stringify({ name: "hostile-input suite", role: "editor" })) }, answerTimeoutMs);
  const token = (JSON.parse(created.text) as { token?: string }).token;
  if (!token) throw new Error(`could not create an editor token: ${created.status} ${created.text}`);
  return token;
}

/** A rank table for /rank-tables/{id} to aim at (each round gets its own: a round's DELETE removes it). */
async function rankTableTarget(base: string, token: string): Promise<string> {
  const table = await send(base, { method: "POST", path: "/api/v1/rank-tables", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: Buffer.from(JSON.stringify({ name: "hostile target", text: '{"version":"1.0","status":"completed","server_count":"0","server_list":[]}' })) }, answerTimeoutMs);
  const id = (JSON.parse(table.text) as { id?: number }).id;
  if (!id) throw new Error(`could not create a rank table: ${table.status} ${table.text}`);
  return String(id);
}

/** The session cookie of the last sign-in (send() does not keep cookies, so sign in again through fetch). */
async function cookieOf(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-in`, { method: "POST", headers: { "content-type": "application/json", origin: base }, body: JSON.stringify({ username: "admin", password: "admin-demo-pass" }) });
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
}

type HostileRequest = Parameters<typeof send>[1];

/** A request sent, its time window (epoch ms): to see which ones a slow poll of /api/health overlapped, and send them again. */
interface Sent {
  label: string;
  request: HostileRequest;
  from: number;
  to: number;
}

interface Tally {
  attempts: number;
  failures: string[];
  slowestMs: number;
  sent: Sent[];
}

/** Sends one hostile request and judges its answer. */
async function sendJudged(base: string, tally: Tally, label: string, request: HostileRequest, accept: (answer: Answer) => boolean): Promise<Answer> {
  const answer = await send(base, request, answerTimeoutMs);
  tally.attempts++;
  const to = Date.now();
  tally.sent.push({ label, request, from: to - answer.ms, to });
  tally.slowestMs = Math.max(tally.slowestMs, answer.ms);
  if (answer.failure) tally.failures.push(`${label}: ${answer.failure}`);
  else if (!accept(answer)) tally.failures.push(`${label}: ${answer.status} ${answer.text.slice(0, 160)}`);
  return answer;
}

const clientError = (answer: Answer) => answer.status >= 400 && answer.status < 500 && isErrorShape(answer);
/** The validator answers a report for any text: it must be bounded. */
const boundedReport = (answer: Answer) => answer.status === 200 && answer.size < 2 * 1024 * 1024 && /"issues":/.test(answer.text);
const readsBody = (endpoint: Endpoint) => {
  const file = path.join("app", endpoint.path.replace(/^\//, "").replace(/\/(clusters|rank-tables|tokens|users)\/[^/]+/, "/$1/[id]").replace("no/such/endpoint", "[...path]"), "route.ts");
  return existsSync(file) && /readJson|readText|readBytes|request\.json|request\.text/.test(readFileSync(file, "utf8"));
};

async function attack(base: string, token: string, endpoints: Endpoint[], tally: Tally): Promise<void> {
  const auth = { authorization: `Bearer ${token}` };
  for (const endpoint of endpoints) {
    if (endpoint.path === "/api/health") continue;
    // The validator and the inventory preview answer a report on any text they are given (and store nothing).
    const validator = endpoint.path.endsWith("/rank-tables/validate") || endpoint.path.endsWith("/inventory/preview");
    // GET and DELETE handlers take no body (one has no meaning there, RFC 9110 §9.3.1, §9.3.5): they get the query attacks.
    if (endpoint.method !== "GET" && endpoint.method !== "DELETE" && readsBody(endpoint)) {
      for (const payload of bodyAttacks(endpoint.bodyLimit)) {
        // Those take any text and report on it; past their limit they answer 413 like everyone else.
        const accept = validator && !payload.name.startsWith("over the limit") ? (a: Answer) => boundedReport(a) || clientError(a) : clientError;
        const request = { method: endpoint.method, path: endpoint.path, headers: { ...auth, ...payload.headers }, body: payload.body, chunked: payload.chunked };
        await sendJudged(base, tally, `${endpoint.method} ${endpoint.path} [${payload.name}]`, request, accept);
      }
    }
    if (endpoint.path.endsWith("/api/v1/events") && endpoint.method === "GET") {
      // A stream: only hostile parameters, which must be refused before it starts.
      await sendJudged(base, tally, `GET ${endpoint.path} [NUL cluster]`, { method: "GET", path: `${endpoint.path}?cluster=%00`, headers: auth }, clientError);
      continue;
    }
    for (const payload of queryAttacks()) {
      // A NUL is refused everywhere; other odd parameters may be ignored, but never with a 5xx or a slow answer.
      const accept = payload.name.startsWith("NUL") ? clientError : (a: Answer) => a.status < 500 && (a.status < 400 || isErrorShape(a));
      await sendJudged(base, tally, `${endpoint.method} ${endpoint.path} [${payload.name}]`, { method: endpoint.method, path: `${endpoint.path}?${payload.query}`, headers: auth }, accept);
    }
  }
}

/**
 * The requests around a slow poll: those it overlapped, after those answered in the `lookbackMs` before it started
 * (at least the last one). What a request leaves behind is dealt with after its answer: the polls slow in the suite's
 * runs fell two to five small requests after a 128 MiB chunked body, as the server collected what had streamed through.
 */
const lookbackMs = 1000;
function requestsAround(poll: HealthFigures["slowPolls"][number], sent: Sent[]): Sent[] {
  const before = sent.filter((one) => one.to < poll.at);
  const recent = before.filter((one) => one.to >= poll.at - lookbackMs);
  const overlapped = sent.filter((one) => one.from <= poll.at + poll.ms && one.to >= poll.at);
  return [...(recent.length > 0 ? recent : before.slice(-1)), ...overlapped];
}

/** The labels of a set of requests, the middle of a long one elided. */
function labelsOf(around: Sent[]): string {
  const labels = around.map((one) => one.label);
  return labels.length <= 6 ? labels.join(" → ") : [...labels.slice(0, 3), `… ${labels.length - 5} more …`, ...labels.slice(-2)].join(" → ");
}

interface SlowPollCause {
  /** The requests around the poll, in the order they were sent. */
  around: Sent[];
  /** The slowest of the polls they were around in the measured round. */
  firstMs: number;
  /** The probe's figures for each time they were sent again alone. */
  again: HealthFigures[];
}

/**
 * The requests around the slow polls (when they are at most `momentaryCauses` sets: more is a pattern, and fails as
 * it is), each set sent again `replays` times, in order and alone, each time under a fresh probe and for at least
 * `replaySeconds` (repeated), so that the probe (every 50 ms) polls during them. A stall of the server's own (a
 * synchronous step on its request thread) comes back each time; a machine busy elsewhere for a moment does not, and
 * on 2 cores the 128 MiB chunked bodies, sent as fast as loopback takes them, make such moments: the server's
 * request thread, the sender and the poll share the cores, and the server's collections of what streamed through
 * (10-20 ms each) fall inside some polls. Sent alone on a quiet machine such a body makes /api/health wait 39-111 ms
 * (polled every 20 ms, 8 bodies, four times); one CI run failed on a single poll of 109 ms, at load 3-4, around one,
 * which its three runs before had gone through at 76-80 ms. So a set fails the check when /api/health is slow again
 * nearly every time it is sent (`stallsIn`), not when slow once more.
 */
const momentaryCauses = 5;
const replays = 5;
const replaySeconds = 1;
/** The sets of requests around the slow polls, each once (by their labels), with the slowest poll it was around. */
function slowPollCauses(slowPolls: HealthFigures["slowPolls"], sent: Sent[]): Map<string, Omit<SlowPollCause, "again">> {
  const causes = new Map<string, Omit<SlowPollCause, "again">>();
  for (const poll of slowPolls) {
    const around = requestsAround(poll, sent);
    const key = around.map((one) => one.label).join("\n");
    causes.set(key, { around, firstMs: Math.max(causes.get(key)?.firstMs ?? 0, poll.ms) });
  }
  return causes;
}

async function sentAgain(base: string, around: Sent[]): Promise<HealthFigures[]> {
  const again: HealthFigures[] = [];
  for (let replay = 0; replay < replays; replay++) {
    const probe = healthProbe(base, healthLimitMs);
    const started = performance.now();
    do {
      for (const one of around) await send(base, one.request, answerTimeoutMs);
    } while (performance.now() - started < replaySeconds * 1000);
    again.push(await probe.stop());
  }
  return again;
}

const slowAgain = (figures: HealthFigures) => figures.slow > 0 || figures.failed > 0;
/** True when the requests around a slow poll made /api/health slow again in all but one of the times they were sent. */
const stallsIn = (cause: SlowPollCause) => cause.again.filter(slowAgain).length >= cause.again.length - 1;

async function main(): Promise<number> {
  await lockCheckout();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));
  const buildId = path.join(distDir, "BUILD_ID");
  // --reuse-build: serve whatever .next-e2e holds (a build takes minutes; for runs against one you just made).
  const reuse = process.argv.includes("--reuse-build") && standaloneBuilt();
  if (!reuse && (!standaloneBuilt() || statSync(buildId).mtimeMs < newestSource())) {
    console.log(`[hostile] building ${distDir} (missing or older than the sources)`);
    const code = await buildStandalone({ typecheck: false });
    if (code !== 0) return code;
  }
  const database = await throwawayDatabase("rankscope_hostile");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", "start"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...database.env, RANKSCOPE_STANDALONE_SERVER: standaloneServer, PORT: String(port), RANKSCOPE_SEED_DEMO: "1", RANKSCOPE_DEMO_ACCOUNTS: "1", NEXT_TELEMETRY_DISABLED: "1" },
  });
  const log: string[] = [];
  server.stdout!.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  server.stderr!.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  try {
    await waitForHealth(base, server);
    const nextPid = nextServerPid(server.pid!);
    if (nextPid === undefined) throw new Error("could not find the Next.js server process");
    const token = await setUp(base);
    const endpointsOf = (rankTable: string) => apiEndpoints({ cluster: "atlas-a3-demo", rankTable, token: "1", user: "nobody" });
    const endpoints = endpointsOf("1");

    const probeOnly = process.argv.includes("--probe-only");
    const tally: Tally = { attempts: 0, failures: [], slowestMs: 0, sent: [] };
    /** One round: every attack (--probe-only: none), then issue 13's probe, three million zeros (6 MB) to the validator as a viewer would send them. */
    const round = async () => {
      if (!probeOnly) await attack(base, token, endpointsOf(await rankTableTarget(base, token)), tally);
      const zeros = zerosTable();
      const rssBefore = rssMb(nextPid);
      const request = { method: "POST", path: "/api/v1/rank-tables/validate", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: zeros };
      // A bounded report; on a machine too busy to finish in the worker's 30 s, its 413 too_complex is bounded too.
      const answer = await sendJudged(base, tally, "POST /api/v1/rank-tables/validate [3,000,000 zeros]", request, (a) => boundedReport(a) || clientError(a));
      return { answer, rssBefore, rssAfter: rssMb(nextPid) };
    };

    // Warm-up: one whole round, its answers judged like the measured round's, before the baseline is taken. A server
    // that has only started has not yet loaded most of its code (each route's module, its schemas, the error paths,
    // the validation worker's), compiled it, or grown its heap to its working size: all that memory stays, and a
    // first module load blocks the event loop for a moment. Measured from a fresh start, that looked like memory not
    // coming back and a slow /api/health; it is neither. A leak or a stall shows in the second, measured round, which
    // does exactly what the first did.
    await round();
    const memoryBefore = await settledMemory(base, nextPid, 25);

    const probe = healthProbe(base, healthLimitMs);
    const started = performance.now();
    const attemptsBefore = tally.attempts;
    const measured = await round();
    const measuredAttempts = tally.attempts - attemptsBefore;
    const health = await probe.stop();
    const attackSeconds = (performance.now() - started) / 1000;
    const { answer, rssBefore: rssBeforeProbe, rssAfter: rssAfterProbe } = measured;

    // Memory: the same settling as for the baseline (the validation worker's idle exit, V8's idle collection).
    // Up to a minute for the heap to shrink back, ending as soon as it is within the bound: one local run stayed at
    // +36% through 25 s of readings (the next three: +13%, +7%, +7%), a heap not yet given back rather than a leak,
    // which does not shrink however long it is read.
    const memoryBound = memoryBefore * (1 + memoryTolerance);
    const memoryAfter = await settledMemory(base, nextPid, 60, memoryBound);
    // Over the bound, one more identical round tells a leak, which grows again, from a one-time growth that stays (such
    // as the young generation, which stays committed once grown: server-node-flags.ts) and may come in the measured
    // round rather than the warm-up: one CI run +22.6 %, its reruns of the same build +13.7 % and +8.6 %. Memory still
    // growing by more than `regrowth` of the baseline after that round fails.
    let memoryAgain: number | undefined;
    if (memoryAfter > memoryBound) {
      await round();
      memoryAgain = await settledMemory(base, nextPid, 60, memoryBound);
    }
    const memoryOk = memoryAgain === undefined ? memoryAfter <= memoryBound : memoryAgain <= memoryBound || memoryAgain - memoryAfter <= memoryBefore * regrowth;
    const suspects = slowPollCauses(health.slowPolls, tally.sent);
    const causes: SlowPollCause[] = [];
    if (suspects.size <= momentaryCauses) {
      for (const { around, firstMs } of suspects.values()) causes.push({ around, firstMs, again: around.length > 0 ? await sentAgain(base, around) : [] });
    }
    const healthOk = health.failed === 0 && (health.slow === 0 || (suspects.size <= momentaryCauses && causes.every((cause) => cause.again.length > 0 && !stallsIn(cause))));

    console.log("\n[hostile] figures");
    console.log(`  endpoints:            ${endpoints.length} (method × route), ${tally.attempts} hostile requests in ${memoryAgain === undefined ? "two" : "three"} rounds (the measured one: ${measuredAttempts} in ${attackSeconds.toFixed(1)} s)`);
    console.log(`  failures:             ${tally.failures.length}`);
    console.log(`  slowest answer:       ${tally.slowestMs.toFixed(0)} ms (bound ${answerTimeoutMs / 1000} s)`);
    console.log(`  /api/health:          ${health.polls} polls, max ${health.maxMs.toFixed(1)} ms, ${health.slow} at or over ${healthLimitMs} ms, ${health.failed} failed`);
    console.log(`  3M-zero validate:     ${answer.status} in ${answer.ms.toFixed(0)} ms, ${(answer.size / 1024).toFixed(1)} KB answer, server RSS ${rssBeforeProbe.toFixed(0)} → ${rssAfterProbe.toFixed(0)} MB`);
    const growth = (memory: number) => `${(((memory - memoryBefore) / memoryBefore) * 100).toFixed(1)}%`;
    console.log(`  server memory (own):  ${memoryBefore.toFixed(0)} MB before, ${memoryAfter.toFixed(0)} MB after (${growth(memoryAfter)}, limit +${memoryTolerance * 100}%)`);
    if (memoryAgain !== undefined) console.log(`  after one more round: ${memoryAgain.toFixed(0)} MB (${growth(memoryAgain)}; a leak grows again, by over ${regrowth * 100}% of the baseline)`);
    for (const failure of tally.failures) console.log(`  FAIL ${failure}`);
    for (const cause of causes) {
      const maxima = cause.again.map((figures) => figures.maxMs.toFixed(0)).join(", ");
      console.log(`  slow /api/health (${cause.firstMs.toFixed(0)} ms) around ${labelsOf(cause.around) || "no request"}`);
      if (cause.again.length > 0) console.log(`    sent again alone ${replays} times: max ${maxima} ms; slow again in ${cause.again.filter(slowAgain).length} (${stallsIn(cause) ? "a stall" : "a moment"})`);
    }
    if (suspects.size > momentaryCauses) {
      console.log(`  slow polls around ${suspects.size} sets of requests, more than a moment of a busy machine (${momentaryCauses}): not sent again`);
      for (const { around, firstMs } of [...suspects.values()].sort((a, b) => b.firstMs - a.firstMs).slice(0, 10)) console.log(`  slow /api/health (${firstMs.toFixed(0)} ms) around ${labelsOf(around)}`);
    }
    const ok = tally.failures.length === 0 && healthOk && memoryOk;
    // A 5xx has its cause only in the server's log.
    if (tally.failures.some((failure) => /: 5\d\d /.test(failure))) console.log(`--- server log ---\n${log.join("").slice(-4000)}`);
    console.log(ok ? "[hostile] passed" : "[hostile] FAILED");
    return ok ? 0 : 1;
  } catch (error) {
    console.error(`[hostile] ${error instanceof Error ? error.message : String(error)}\n--- server log ---\n${log.join("").slice(-4000)}`);
    return 1;
  } finally {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    await database.cleanup();
  }
}

process.exit(await main());
