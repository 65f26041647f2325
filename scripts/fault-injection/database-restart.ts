import type { EmbeddedServer } from "@/db/embedded";
import { batch, postBatch, verifyBatches } from "./fault-batches";
import { call, check, killHard, log, sleep, startApp } from "./harness";

/** Phase 1: stop PostgreSQL for `outageMs` while clients post batches and read; start it again; watch them recover. */
export async function restartUnderLoad(pg: { server: EmbeddedServer; restart(): Promise<EmbeddedServer> }, databaseUrl: string, token: string, pool: import("pg").Pool) {
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
