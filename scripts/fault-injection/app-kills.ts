import { readFile } from "node:fs/promises";
import path from "node:path";
import type { DatabaseHandle } from "@/db/client";
import { loadRevisionTexts } from "@/db/queries/rank-tables";
import { batch, postBatch, verifyBatches } from "./fault-batches";
import { call, check, killHard, log, sleep, startApp } from "./harness";

/** Phase 2: kill -9 the app while batches are being written, twice. */
export async function killMidBatch(databaseUrl: string, token: string, pool: import("pg").Pool) {
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
export async function killMidSave(databaseUrl: string, token: string, { db, pool }: Pick<DatabaseHandle, "db" | "pool">) {
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
