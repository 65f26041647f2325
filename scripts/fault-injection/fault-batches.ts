import { call, check, failures, log, type App } from "./harness";

/** A batch of distinct fault events on the A2 demo cluster, named by the source so a re-post is recognised. */
export function batch(name: string, size: number, start: number): { name: string; ids: string[]; events: unknown[] } {
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

export const postBatch = (app: App, token: string, b: ReturnType<typeof batch>) => call(app, token, "POST", "/api/v1/fault-events?atomic=all", b.events);

async function storedCount(pool: import("pg").Pool, ids: string[]): Promise<number> {
  const { rows } = await pool.query<{ n: number }>("select count(*)::int as n from fault_events where id = any($1)", [ids]);
  return rows[0]!.n;
}

/** Every acknowledged batch whole, the others whole or absent; a re-post of everything stores each event once. */
export async function verifyBatches(app: App, token: string, pool: import("pg").Pool, batches: { b: ReturnType<typeof batch>; acked: boolean }[], label: string) {
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
