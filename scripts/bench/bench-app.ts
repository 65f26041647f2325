import { spawn, type ChildProcess } from "node:child_process";
import { connectDatabase } from "@/db/client";
import { freePort } from "@/db/embedded";
import { systemActor } from "@/db/queries/audit";
import { createUser } from "@/db/queries/users";
import { lockCheckout } from "../e2e-lock";
import { buildStandalone, standaloneServer } from "../production-build";

/* The app as the browser benches serve it (built into .next-e2e), and the bench user signed in to it. */

/** The account the benches sign in with (created as a viewer in their database). */
export const benchUser = { username: "bench_viewer", password: "bench-viewer-password" };

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error("the server exited before answering");
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer within 2 minutes`);
}

/** Builds the app into .next-e2e (the caller holds the checkout lock) and serves it on DATABASE_URL `databaseUrl`. */
export async function startApp(databaseUrl: string): Promise<{ base: string; pid: number; stop: () => void }> {
  console.log("building the app into .next-e2e …");
  if ((await buildStandalone({ typecheck: false })) !== 0) throw new Error("next build failed");
  return serveApp(databaseUrl);
}

/**
 * Serves the build already in .next-e2e (scripts/serve.ts, as the offline archive does) until it answers its health
 * check. `pid`: scripts/serve.ts, whose descendants are the app server (scripts/proc-stats.ts reads their memory).
 */
export async function serveApp(databaseUrl: string): Promise<{ base: string; pid: number; stop: () => void }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", "start"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, RANKSCOPE_STANDALONE_SERVER: standaloneServer, NEXT_TELEMETRY_DISABLED: "1", PORT: String(port), DATABASE_URL: databaseUrl },
  });
  try {
    await waitFor(`${base}/api/health`, server);
  } catch (error) {
    server.kill("SIGTERM");
    throw error;
  }
  return { base, pid: server.pid!, stop: () => server.kill("SIGTERM") };
}

/**
 * For the benches on an existing database (job-page, topology-pages): the bench user (kept from an earlier run), the
 * checkout's lock, and the app built (or, `build` false, the build already in .next-e2e) and served on `databaseUrl`.
 * `stop` stops the app and releases the lock.
 */
export async function appOnExisting(databaseUrl: string, build: boolean): Promise<{ base: string; stop: () => void }> {
  const handle = connectDatabase(databaseUrl, { max: 1 });
  try {
    await createUser(handle.db, { ...benchUser, role: "viewer" }, systemActor).catch(() => undefined);
  } finally {
    await handle.pool.end();
  }
  const release = await lockCheckout();
  try {
    const app = build ? await startApp(databaseUrl) : await serveApp(databaseUrl);
    return {
      base: app.base,
      stop: () => {
        app.stop();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** Chromium as the benches run it, with a page size of 1600 × 1000 and the bench user signed in on `base`. */
export async function benchBrowser(base: string) {
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    const signed = await context.request.post(`${base}/api/auth/sign-in`, { data: benchUser, headers: { origin: base } });
    if (!signed.ok()) throw new Error(`sign-in answered ${signed.status()}`);
    return { browser, context };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** Signs the bench user in: the cookie header for API requests. */
export async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify(benchUser),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .join("; ");
}
