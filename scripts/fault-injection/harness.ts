import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { freePort } from "@/db/embedded";
import { serverNodeFlags, serverPreloadEnv } from "../server-node-flags";

/* What the fault-injection phases (./run.ts) share: the log and its checks, the app process, requests to it. */

export const log = (line: string) => console.log(`[faults] ${line}`);
/** What failed, for the summary at the end. */
export const failures: string[] = [];
export function check(ok: boolean, what: string): void {
  if (!ok) failures.push(what);
  log(`${ok ? "ok  " : "FAIL"} ${what}`);
}
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface App {
  base: string;
  child: ChildProcess;
}

/** The app's route handlers in a process of their own (./app-server.ts), on a free port, once it listens. */
export async function startApp(databaseUrl: string): Promise<App> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...serverNodeFlags, "--conditions=react-server", "--import", "tsx", "scripts/fault-injection/app-server.ts"],
    // The server's own preloads (peer address, body limits), as scripts/serve.ts gives them to Next.js.
    { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...serverPreloadEnv(), DATABASE_URL: databaseUrl, PORT: String(port), NODE_ENV: "production" } },
  );
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the app process exited (${code}) before listening`)));
    createInterface({ input: child.stdout! }).on("line", (line) => (line === "listening" ? resolve() : console.log(line)));
  });
  child.removeAllListeners("exit");
  return { base: `http://127.0.0.1:${port}`, child };
}

export async function killHard(app: App): Promise<void> {
  const exited = new Promise((resolve) => app.child.once("exit", resolve));
  app.child.kill("SIGKILL");
  await exited;
}

export interface Answer {
  status: number;
  code?: string;
  retryAfter: string | null;
  body: unknown;
}

/** One request with the suite's token: the status, the error code, Retry-After and the body (JSON when it parses). */
export async function call(app: App, token: string, method: string, pathAndQuery: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${app.base}${pathAndQuery}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, code: (parsed as { error?: { code?: string } })?.error?.code, retryAfter: response.headers.get("retry-after"), body: parsed };
}
