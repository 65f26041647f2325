import { rm } from "node:fs/promises";
import path from "node:path";
import { startEmbeddedPostgres } from "@/db/embedded";
import { check, cookieOf, embeddedDirectory, log, me, signIn, startInstance, stopInstance, writeHeaders, type Instance } from "./instances";

/**
 * PostgreSQL restarted under load, on an embedded server of its own (the shared one may not be restarted): two
 * instances, readers and writers on both; while it is down every request gets an answer within 10 s, a 503
 * `database_unavailable` with Retry-After, never a 500 or a hang; once it is back both instances serve again on
 * their own, without a restart.
 */
export async function restartUnderLoad(build: Record<string, string>): Promise<void> {
  const dir = await embeddedDirectory();
  const dataDir = path.join(dir, "postgres");
  let server = await startEmbeddedPostgres({ dataDir, persistent: true });
  const instances: Instance[] = [];
  try {
    const env = { ...build, DATABASE_URL: server.url(), RANKSCOPE_SEED_DEMO: "1", RANKSCOPE_DEMO_ACCOUNTS: "1" };
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
