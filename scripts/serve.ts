/**
 * `npm run dev` / `npm start`: owns the database for the lifetime of the Next.js server. Starts the embedded
 * PostgreSQL when DATABASE_URL is unset, applies pending migrations, seeds the demo clusters into an empty embedded
 * database, runs Next.js, the hourly fault-event retention and the fault-event inbox judge, and on Ctrl-C / SIGTERM stops Next.js first and
 * PostgreSQL last, so nothing is orphaned. `serve.ts prepare` does only the database part (migrations and the seeds
 * the environment asks for) and exits: the e2e runner prepares its database while the app builds (scripts/e2e-run.ts).
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { connectDatabase } from "@/db/client";
import { migrate, MigrationError } from "@/db/migrate";
import { systemActor } from "@/db/queries/audit";
import { bootstrapAdmin } from "@/db/queries/users";
import { seedDemo, seedDemoAccounts, seedDemoData } from "@/db/seed";
import { e2ePlainCluster, e2eSuperCluster } from "@/lib/topology/large-cluster";
import { clusters } from "@/db/schema";
import { trustedProxies } from "@/lib/auth/trusted-proxies";
import { resolveDatabase } from "./database";
import { scheduleInboxJudge } from "./inbox-judge";
import { scheduleRetention } from "./retention-schedule";
import { serverNodeFlags, serverPreloadEnv } from "./server-node-flags";

const log = (line: string) => console.log(`[rankscope] ${line}`);
const mode = process.argv[2];
if (mode !== "dev" && mode !== "start" && mode !== "prepare") {
  console.error("usage: tsx scripts/serve.ts dev|start|prepare");
  process.exit(2);
}

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
      const seeded = await seedDemoData(handle);
      if (seeded.clusters.created.length) log(`seeded demo clusters: ${seeded.clusters.created.join(", ")}`);
      if (seeded.faults) log(`seeded a simulated day of faults: ${seeded.faults} events`);
      if (seeded.cpuLayouts) log(`seeded CPU layouts for ${seeded.cpuLayouts} servers`);
      if (seeded.jobs) log(`seeded demo jobs: ${seeded.jobs} (one failed, with its diagnosis)`);
    }
    // The end-to-end tests' SuperCluster-shaped cluster (64 super pods, past the topology's aggregation thresholds) and
    // cluster of 1,040 plain servers (drawn by rack).
    if (process.env.RANKSCOPE_SEED_SCALE === "1") {
      const seeded = await seedDemo(handle.db, [e2eSuperCluster(), e2ePlainCluster()]);
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
  if (mode === "prepare") {
    await database.close();
    return 0;
  }

  const port = process.env.PORT ?? "3000";
  // RANKSCOPE_CPU_PROFILE_DIR=<dir>: the server writes its V8 CPU profile there when it stops (benches; Node refuses
  // --cpu-prof in NODE_OPTIONS).
  const profileDir = process.env.RANKSCOPE_CPU_PROFILE_DIR;
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...serverNodeFlags, ...profile, ...nextCommand(port)], {
    stdio: "inherit",
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      ...process.env,
      // A standalone server.js listens on HOSTNAME, which shells set to the machine's name: all interfaces, as
      // `next start` does, unless RANKSCOPE_HOST says otherwise.
      ...(standaloneServer ? { HOSTNAME: process.env.RANKSCOPE_HOST ?? "0.0.0.0" } : {}),
      DATABASE_URL: database.url,
      PORT: port,
      // The request preloads (peer address, body limits): serverPreloadEnv says why.
      ...serverPreloadEnv(),
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
  const judge = scheduleInboxJudge(database.url, log);
  const code = await new Promise<number | null>((resolve) => child.on("exit", (exitCode) => resolve(exitCode)));
  await Promise.all([retention.stop(), judge.stop()]);
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
