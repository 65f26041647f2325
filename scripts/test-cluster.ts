/**
 * `npm run test:cluster`: two Rankscope instances on different ports, as behind a load balancer, on a real PostgreSQL
 * primary with a streaming replica (Debian's PostgreSQL 15, pg_basebackup: cluster/replica.ts) as DATABASE_URL and
 * DATABASE_READ_URL, and the promises that must hold across them: a session made on one works on the other; the
 * sign-in lock-out and the token write limit count across both; a fault event posted to one reaches an SSE client of
 * the other within 2 s; a user's event streams count against the per-user cap on both instances together
 * (cluster/streams.ts); a rank table saved through one with a stale revision through the other gets 409
 * (cluster/across.ts); the heavy reads come from the replica, a caller reads its own writes, lag is shown as "data as
 * of", a fault answer computed on one is served by the other, retention runs once, and a replica that stops is a fallback to the primary, not an error (cluster/reads.ts);
 * one instance killed with SIGKILL mid-batch loses nothing it acknowledged, and a re-post through the other duplicates
 * nothing, and likewise for batches posted with `Prefer: respond-async`, judged by the survivor's inbox judge
 * (cluster/across.ts). Then, on an embedded PostgreSQL of its own, a restart under load (cluster/restart.ts).
 * Runs the standalone build the test runners share (cluster/instances.ts productionBuild(), scripts/production-build.ts;
 * made first when missing: `npm run test:e2e` rebuilds it).
 */
import { killAfterAccepted, killMidBatch, staleSave } from "./cluster/across";
import { check, cookieOf, log, me, productionBuild, signIn, startInstance, stopInstance, tokenWritesPerMinute, type Instance } from "./cluster/instances";
import { readsFromReplica, replicaDown, retentionOnce, sharedAnswerAcross } from "./cluster/reads";
import { startPrimaryAndReplica } from "./cluster/replica";
import { restartUnderLoad } from "./cluster/restart";
import { streamCapAcross, streamsPerUser } from "./cluster/streams";

async function main(): Promise<void> {
  const build = await productionBuild();
  const started = performance.now();
  const database = await startPrimaryAndReplica();
  const instances: Instance[] = [];
  try {
    // The first instance migrates and seeds the demo with its accounts; the second finds everything in place.
    // Retention runs every 3 s on each, so that running it once across them is seen within the test.
    const env = {
      ...build,
      DATABASE_URL: database.primaryUrl,
      DATABASE_READ_URL: database.replicaUrl,
      RANKSCOPE_SEED_DEMO: "1",
      RANKSCOPE_DEMO_ACCOUNTS: "1",
      RANKSCOPE_RETENTION_INTERVAL_MS: "3000",
      RANKSCOPE_SSE_MAX_STREAMS_PER_USER: String(streamsPerUser),
    };
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
    // The per-user stream cap across both, for a user holding no stream yet (admin's just ended stream may still hold its lease).
    await streamCapAcross(a, b, cookieOf(await signIn(a, "viewer", "viewer-demo-pass")));

    await staleSave(a, b, admin);

    // The read replica, and retention across the instances.
    const viewerAgain = cookieOf(await signIn(b, "viewer", "viewer-demo-pass"));
    await readsFromReplica(a, b, admin, viewerAgain, database);
    await sharedAnswerAcross(a, b, viewerAgain, database.primaryUrl);
    await retentionOnce(a, b, admin, database.primaryUrl);
    await replicaDown(a, b, viewerAgain, database);

    // A third instance for the inbox's SIGKILL check, so that A and B are still there for the synchronous one.
    instances.push(await startInstance("C", env));
    await killAfterAccepted(instances[2]!, b, admin, database.primaryUrl);
    await killMidBatch(a, b, admin, database.primaryUrl);
  } finally {
    await Promise.allSettled(instances.map(stopInstance));
    await database.stop();
  }
  await restartUnderLoad(build);
  log(`passed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((error: unknown) => {
  console.error(`[test:cluster] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
