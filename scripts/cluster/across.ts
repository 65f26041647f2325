/** The checks of `npm run test:cluster` that need one instance to write and the other to answer. */
import { readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { check, root, writeHeaders, type Instance } from "./instances";

/** A rank table saved through A, then saved through B from the revision before: 409, and A's save stands. */
export async function staleSave(a: Instance, b: Instance, cookie: string): Promise<void> {
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

const batches = 8;
const size = 1_000;

/**
 * Batch `n` of the SIGKILL checks: 1,000 distinct link downs of the last hour on sp0-node01..04, ids
 * `<prefix>-<n>-<i>` (the batch is the id's next to last part), marked with `message`.
 */
function killTestBatches(prefix: string, message: string): (n: number) => unknown[] {
  const start = Date.now() - 3_600_000;
  return (n) =>
    Array.from({ length: size }, (_, i) => ({
      id: `${prefix}-${n}-${i}`,
      cluster: "atlas-a3-demo",
      kind: "roce-link-down",
      source: "simulator",
      code: "81078603",
      target: { server: `sp0-node0${1 + (i % 4)}`, die: i % 16 },
      beganAt: new Date(start + n * size + i).toISOString(),
      endedAt: new Date(start + n * size + i + 500).toISOString(),
      message,
    }));
}

/** Posts every batch at once and kills `victim` (SIGKILL, its process group) on the first answer `acknowledgedAs`. */
async function postAllKilling<A extends { n: number; status: number }>(victim: Instance, acknowledgedAs: number, post: (n: number) => Promise<A>) {
  let killed = false;
  const answers = await Promise.all(
    Array.from({ length: batches }, (_, n) =>
      post(n).then((answer) => {
        if (!killed && answer.status === acknowledgedAs) {
          killed = true;
          process.kill(-victim.child.pid!, "SIGKILL");
        }
        return answer;
      }),
    ),
  );
  return { killed, answers, acknowledged: answers.filter((r) => r.status === acknowledgedAs).map((r) => r.n) };
}

/**
 * Batches of 1,000 events posted in parallel to A, which is killed with SIGKILL (the supervisor, Next.js and their
 * connections) once the first is acknowledged: every acknowledged batch is stored whole, and posting every batch
 * again to B stores each event exactly once.
 */
export async function killMidBatch(a: Instance, b: Instance, cookie: string, databaseUrl: string): Promise<void> {
  const batch = killTestBatches("kill", "cluster-kill-test");
  const once = (instance: Instance, n: number) =>
    fetch(`${instance.base}/api/v1/fault-events?atomic=all`, { method: "POST", headers: writeHeaders(instance, cookie), body: JSON.stringify(batch(n)) })
      .then(async (response) => ({ n, status: response.status, retryAfter: Number(response.headers.get("retry-after") ?? 1), body: (await response.json()) as { counts?: Record<string, number> } }))
      .catch(() => ({ n, status: 0, retryAfter: 0, body: {} as { counts?: Record<string, number> } }));
  // As a device plugin does: a batch the instance's ingestion bound refused (429, nothing written) is sent again
  // after Retry-After.
  const post = async (instance: Instance, n: number) => {
    for (let attempt = 1; ; attempt++) {
      const answer = await once(instance, n);
      if (answer.status !== 429 || attempt === 30) return answer;
      await new Promise((resolve) => setTimeout(resolve, answer.retryAfter * 1000));
    }
  };
  const { killed, answers, acknowledged } = await postAllKilling(a, 200, (n) => post(a, n));
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

/**
 * Batches of 1,000 events posted in parallel with `Prefer: respond-async` to `victim`, which is killed with SIGKILL
 * once the first is acknowledged (202): every acknowledged batch is in the inbox or judged, the survivor's inbox judge
 * (scripts/inbox-judge.ts) judges it, and posting every batch again (async, to the survivor) stores each event once.
 */
export async function killAfterAccepted(victim: Instance, survivor: Instance, cookie: string, databaseUrl: string): Promise<void> {
  const batch = killTestBatches("inbox-kill", "cluster-inbox-kill-test");
  const post = (instance: Instance, n: number) =>
    fetch(`${instance.base}/api/v1/fault-events?atomic=all`, { method: "POST", headers: writeHeaders(instance, cookie, { prefer: "respond-async" }), body: JSON.stringify(batch(n)) })
      .then((response) => ({ n, status: response.status }))
      .catch(() => ({ n, status: 0 }));
  const { killed, answers, acknowledged } = await postAllKilling(victim, 202, (n) => post(victim, n));
  check(killed && acknowledged.length > 0, `${victim.name} killed with SIGKILL after a 202: ${acknowledged.length} of ${batches} async batches acknowledged, ${answers.filter((r) => r.status === 0).length} cut off`);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const stored = async () =>
      new Map(
        (await pool.query<{ batch: string; n: number }>("select split_part(id, '-', 3) as batch, count(*)::int as n from fault_events where message = 'cluster-inbox-kill-test' group by 1")).rows.map((r) => [Number(r.batch), r.n]),
      );
    const drained = async () => {
      for (let i = 0; i < 60; i++) {
        if ((await pool.query<{ n: number }>("select count(*)::int as n from fault_inbox")).rows[0]!.n === 0) return true;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      return false;
    };
    check(await drained(), `${survivor.name}'s inbox judge empties the inbox`);
    const judged = await stored();
    check(acknowledged.every((n) => judged.get(n) === size), `every acknowledged batch is judged whole (${acknowledged.map((n) => `#${n}: ${judged.get(n)}`).join(", ")})`);
    const again = await Promise.all(Array.from({ length: batches }, (_, n) => post(survivor, n)));
    check(again.every((r) => r.status === 202), `every batch posted again to ${survivor.name} is accepted (${again.map((r) => r.status).join(" ")})`);
    check(await drained(), "and judged");
    const total = [...(await stored()).values()].reduce((sum, n) => sum + n, 0);
    check(total === batches * size, `each event stored once: ${total} rows for ${batches * size} events`);
  } finally {
    await pool.end();
  }
}
