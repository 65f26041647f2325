/**
 * `npm run dev` / `npm start`: owns the database for the lifetime of the Next.js server. Starts the embedded
 * PostgreSQL when DATABASE_URL is unset, applies pending migrations, seeds the demo clusters into an empty embedded
 * database, runs Next.js and the hourly fault-event retention, and on Ctrl-C / SIGTERM stops Next.js first and
 * PostgreSQL last, so nothing is orphaned.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { connectDatabase } from "@/db/client";
import { migrate, MigrationError } from "@/db/migrate";
import { systemActor } from "@/db/queries/audit";
import { bootstrapAdmin } from "@/db/queries/users";
import { seedDemoFaults } from "@/db/queries/faults";
import { seedDemoJobs } from "@/db/queries/jobs-seed";
import { seedDemo, seedDemoAccounts } from "@/db/seed";
import { e2eSuperCluster } from "@/lib/topology/large-cluster";
import { clusters } from "@/db/schema";
import { trustedProxies } from "@/lib/auth/trusted-proxies";
import { bodyLimitRules } from "@/server/http/body-limits";
import { resolveDatabase } from "./database";
import { scheduleRetention } from "./retention-schedule";
import { serverNodeFlags } from "./server-node-flags";

const log = (line: string) => console.log(`[rankscope] ${line}`);
const mode = process.argv[2];
if (mode !== "dev" && mode !== "start") {
  console.error("usage: tsx scripts/serve.ts dev|start");
  process.exit(2);
}

/**
 * Loaded into the Next.js process: stamps each request with its connection's address and scheme, which Next.js does
 * not expose (server/auth/request.ts reads them). NODE_OPTIONS rather than an argument, so that processes Next.js
 * forks (the dev server's) load it too.
 */
const peerAddressPreload = new URL("./peer-address.mjs", import.meta.url).href;
/** Also loaded into it: ends each API request's body just past its route's limit, before Next.js buffers it (the limits as JSON). */
const bodyLimitPreload = new URL("./body-limit.mjs", import.meta.url).href;

/**
 * The offline bundle (scripts/bundle.ts) runs Next.js's standalone server.js, named by RANKSCOPE_STANDALONE_SERVER,
 * since it ships no `next` package; otherwise `next dev|start` from node_modules.
 */
const standaloneServer = mode === "start" ? process.env.RANKSCOPE_STANDALONE_SERVER : undefined;
function nextCommand(port: string): string[] {
  if (standaloneServer) return [standaloneServer];
  return [createRequire(import.meta.url).resolve("next/dist/bin/next"), mode!, "--port", port];
}

async function main(): Promise<number> {
  trustedProxies(); // a malformed RANKSCOPE_TRUSTED_PROXIES stops the start here, with the entry named
  const database = await resolveDatabase(log);
  const handle = connectDatabase(database.url, { max: 2 });
  try {
    const applied = await migrate(handle.pool);
    log(applied.length ? `applied migrations: ${applied.join(", ")}` : "database schema is up to date");
    const empty = (await handle.db.$count(clusters)) === 0;
    const seedingDemo = (database.embedded && empty) || process.env.RANKSCOPE_SEED_DEMO === "1";
    if (seedingDemo) {
      const seeded = await seedDemo(handle.db);
      if (seeded.created.length) log(`seeded demo clusters: ${seeded.created.join(", ")}`);
      const faults = await seedDemoFaults(handle);
      if (faults) log(`seeded a simulated day of faults: ${faults} events`);
      const jobs = await seedDemoJobs(handle);
      if (jobs) log(`seeded demo jobs: ${jobs} (one failed, with its diagnosis)`);
    }
    // The end-to-end tests' SuperCluster-shaped cluster (64 super pods, past the topology's aggregation thresholds).
    if (process.env.RANKSCOPE_SEED_SCALE === "1") {
      const seeded = await seedDemo(handle.db, [e2eSuperCluster()]);
      if (seeded.created.length) log(`seeded the scale test cluster: ${seeded.created.join(", ")}`);
    }
    // Demo accounts have published passwords: only ever in the embedded demo database (or when asked explicitly).
    if ((database.embedded && seedingDemo) || process.env.RANKSCOPE_DEMO_ACCOUNTS === "1") {
      const accounts = await seedDemoAccounts(handle.db);
      if (accounts.length) log(`seeded demo accounts: ${accounts.join(", ")} (passwords in the README)`);
    }
    const admin = await bootstrapAdmin(handle.db, systemActor);
    if (admin) {
      log("no users yet: created the first admin account. The password is shown this once; change it after signing in.");
      log(`    username: ${admin.username}`);
      log(`    password: ${admin.password}`);
    }
  } catch (error) {
    await handle.pool.end();
    await database.close();
    if (error instanceof MigrationError) log(`cannot start: ${error.message}`);
    throw error;
  }
  await handle.pool.end();

  const port = process.env.PORT ?? "3000";
  const child = spawn(process.execPath, [...serverNodeFlags, ...nextCommand(port)], {
    stdio: "inherit",
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      ...process.env,
      // A standalone server.js listens on HOSTNAME, which shells set to the machine's name: all interfaces, as
      // `next start` does, unless RANKSCOPE_HOST says otherwise.
      ...(standaloneServer ? { HOSTNAME: process.env.RANKSCOPE_HOST ?? "0.0.0.0" } : {}),
      DATABASE_URL: database.url,
      PORT: port,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import ${JSON.stringify(peerAddressPreload)}`, `--import ${JSON.stringify(bodyLimitPreload)}`].filter(Boolean).join(" "),
      RANKSCOPE_BODY_LIMITS: JSON.stringify(bodyLimitRules()),
    },
  });
  const unsupervise = database.embedded?.supervise(log);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    unsupervise?.();
    log(`${signal}: stopping`);
    child.kill(signal);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => stop(signal));
  const retention = scheduleRetention(database.url, log);
  const code = await new Promise<number | null>((resolve) => child.on("exit", (exitCode) => resolve(exitCode)));
  await retention.stop();
  await database.close();
  if (database.embedded) log("embedded PostgreSQL stopped");
  return stopping ? 0 : (code ?? 1);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (!(error instanceof MigrationError)) log(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
