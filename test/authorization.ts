/**
 * The authorisation matrix: every route handler under app/ (found on disk, so a new route without an entry here
 * fails), every exported method, with the status a caller that is allowed in gets and how to build its request.
 * The tests beside app/ call each as anonymous, viewer, editor, admin (session cookies) and as viewer, editor and
 * admin API tokens, through the proxy (the central check) and the handler (its own check): app/authorization.int.test.ts
 * (the matrix), app/credentials.int.test.ts (credentials that must not work), app/method-not-allowed.int.test.ts
 * and app/database-unavailable.int.test.ts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { beforeAll, expect } from "vitest";
import { a2TopoNotDefault, kunpeng920Lscpu } from "@/lib/affinity/fixtures/real-shapes";
import { systemActor } from "@/db/queries/audit";
import { createJob } from "@/db/queries/jobs";
import { getRankTable } from "@/db/queries/rank-tables";
import { createRankTable } from "@/db/queries/rank-table-saves";
import { createApiToken } from "@/db/queries/tokens";
import { createUser } from "@/db/queries/users";
import { demoClusters } from "@/lib/inventory/demo";
import { defaultPortPolicy } from "@/lib/ports/policy";
import { seedDemo } from "@/db/seed";
import type { Permission, Role } from "@/lib/auth/roles";
import { createPrincipals, origin, testPassword } from "./auth";
import { testDatabase } from "./database";
import { appRoot, routeFiles } from "./route-files";
import { isMethodNotAllowedHandler } from "@/server/http/method-not-allowed";

const methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type Method = (typeof methods)[number];
type Who = "anonymous" | `user:${Role}` | `token:${Role}`;
export const callers: Who[] = ["anonymous", "user:viewer", "user:editor", "user:admin", "token:viewer", "token:editor", "token:admin"];

interface Call {
  /** Route parameters ({ id } for /users/[id]). */
  params?: Record<string, string | string[]>;
  query?: string;
  /** JSON (objects) or raw text (strings). */
  body?: unknown;
  headers?: Record<string, string>;
}

interface Entry {
  permission: Permission;
  /** The status for a caller that is allowed in (per kind when it differs). */
  ok: number | Partial<Record<"user" | "token" | "anonymous", number>>;
  /** Builds the request; called before every call, so each can get its own target. */
  call?: () => Promise<Call> | Call;
  /** The handler ends the caller's session(s): use a fresh session for it and sign in again afterwards. */
  endsSessions?: boolean;
}

let a2ServerId = "";
let a2RankTable = "";
let rankTableId = 0;
let faultSettings: unknown;
const window24h = () => `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date().toISOString()}`;
const rankTableText = readFileSync(path.resolve(__dirname, "../lib/rank-table/fixtures/seed-ai-server.jsonc"), "utf8");
const newRankTable = async () => (await createRankTable(testDatabase().db, { name: unique("matrix table "), text: rankTableText }, systemActor)).id;
let patchTarget = "";
let jobId = 0;
const newJob = async () => (await createJob(testDatabase(), { cluster: "atlas-a2-demo", name: unique("matrix-job-"), rankTable: a2RankTable }, systemActor)).id;
const ringsConfig = () => ({ kind: "ConfigMap", metadata: { name: unique("rings-config-matrix-"), namespace: "default" }, data: { "hccl.json": '{"status":"initializing"}' } });
let counter = 0;
const unique = (prefix: string) => `${prefix}${++counter}`;

/** One entry per "METHOD /path" of every route.ts. */
export const matrix: Record<string, Entry> = {
  "GET /api/health": { permission: "public", ok: 200 },
  ...Object.fromEntries(
    (["GET", "POST", "PUT", "PATCH", "DELETE"] as const).map((m) => [`${m} /api/[...path]`, { permission: "public", ok: 404, call: () => ({ params: { path: ["nothing", "here"] } }) } satisfies Entry]),
  ),
  "POST /api/auth/sign-in": {
    permission: "public",
    ok: 200,
    call: () => ({ body: { username: "test_viewer", password: testPassword("viewer") } }),
  },
  "POST /api/auth/sign-out": { permission: "read", ok: { user: 204, token: 400 }, endsSessions: true },
  "POST /api/auth/sign-out-everywhere": { permission: "read", ok: { user: 204, token: 400 }, endsSessions: true },
  "GET /api/v1/me": { permission: "read", ok: 200 },
  "GET /api/v1/clusters": { permission: "read", ok: 200 },
  "GET /api/v1/clusters/[id]/topology": { permission: "read", ok: 200, call: () => ({ params: { id: "atlas-a2-demo" }, query: "level=cluster" }) },
  "GET /api/v1/clusters/[id]/topology/search": { permission: "read", ok: 200, call: () => ({ params: { id: "atlas-a2-demo" }, query: "q=1" }) },
  "GET /api/v1/clusters/[id]/topology/node": {
    permission: "read",
    ok: 200,
    call: () => ({ params: { id: "atlas-a2-demo" }, query: `kind=server&id=${encodeURIComponent(a2ServerId)}` }),
  },
  "GET /api/v1/users": { permission: "admin", ok: 200 },
  "POST /api/v1/users": {
    permission: "admin",
    ok: 201,
    call: () => ({ body: { username: unique("matrix_user_"), role: "viewer", password: "matrix-password-1" } }),
  },
  "PATCH /api/v1/users/[id]": {
    permission: "admin",
    ok: 200,
    call: () => ({ params: { id: patchTarget }, body: { role: counter++ % 2 ? "editor" : "viewer" } }),
  },
  "POST /api/v1/users/[id]/unlock": { permission: "admin", ok: 200, call: () => ({ params: { id: patchTarget } }) },
  "GET /api/v1/tokens": { permission: "admin", ok: 200 },
  "POST /api/v1/tokens": { permission: "admin", ok: 201, call: () => ({ body: { name: unique("matrix token "), role: "viewer" } }) },
  "DELETE /api/v1/tokens/[id]": {
    permission: "admin",
    ok: 200,
    call: async () => ({ params: { id: String((await createApiToken(testDatabase().db, { name: unique("doomed "), role: "viewer" }, systemActor)).id) } }),
  },
  "GET /api/v1/audit": { permission: "admin", ok: 200, call: () => ({ query: "action=auth.&pageSize=5" }) },

  "GET /api/v1/rank-tables": { permission: "read", ok: 200 },
  "POST /api/v1/rank-tables": { permission: "write", ok: 201, call: () => ({ body: { name: unique("matrix new "), text: rankTableText } }) },
  "POST /api/v1/rank-tables/validate": { permission: "read", ok: 200, call: () => ({ body: rankTableText, headers: { "content-type": "text/plain" } }) },
  "GET /api/v1/rank-tables/[id]": { permission: "read", ok: 200, call: () => ({ params: { id: String(rankTableId) } }) },
  "PUT /api/v1/rank-tables/[id]": {
    permission: "write",
    ok: 200,
    call: async () => {
      const current = await getRankTable(testDatabase().db, rankTableId);
      return { params: { id: String(rankTableId) }, headers: { "if-match": `"${current!.revision}"` }, body: { text: rankTableText, comment: unique("edit ") } };
    },
  },
  "PATCH /api/v1/rank-tables/[id]": { permission: "write", ok: 200, call: () => ({ params: { id: String(rankTableId) }, body: { name: unique("matrix renamed ") } }) },
  "DELETE /api/v1/rank-tables/[id]": { permission: "write", ok: 200, call: async () => ({ params: { id: String(await newRankTable()) } }) },
  "GET /api/v1/rank-tables/[id]/export": { permission: "read", ok: 200, call: () => ({ params: { id: String(rankTableId) }, query: "format=json" }) },
  "GET /api/v1/rank-tables/[id]/revisions": { permission: "read", ok: 200, call: () => ({ params: { id: String(rankTableId) } }) },
  "POST /api/v1/rank-tables/text": {
    permission: "write",
    ok: 201,
    call: () => ({ query: `name=${encodeURIComponent(unique("matrix streamed "))}`, headers: { "content-type": "application/json" }, body: rankTableText }),
  },
  "GET /api/v1/rank-tables/[id]/text": { permission: "read", ok: 200, call: () => ({ params: { id: String(rankTableId) } }) },
  "PUT /api/v1/rank-tables/[id]/text": {
    permission: "write",
    ok: 200,
    call: async () => {
      const current = await getRankTable(testDatabase().db, rankTableId);
      return { params: { id: String(rankTableId) }, headers: { "if-match": `"${current!.revision}"`, "content-type": "application/json" }, body: rankTableText };
    },
  },

  "GET /api/v1/clusters/[id]/inventory/rank-table": { permission: "read", ok: 200, call: () => ({ params: { id: "atlas-a2-demo" } }) },
  "POST /api/v1/clusters/[id]/inventory/preview": { permission: "write", ok: 200, call: () => ({ params: { id: "atlas-a2-demo" }, body: { text: a2RankTable } }) },
  // A stale expectedRevision: the write is refused with 409 after the permission check, so the inventory stays.
  "GET /api/v1/fault-events": { permission: "read", ok: 200, call: () => ({ query: `cluster=atlas-a2-demo&${window24h()}` }) },
  // An empty batch: accepted, nothing to write.
  "POST /api/v1/fault-events": { permission: "write", ok: 200, call: () => ({ body: [] }) },
  // Not a device-info ConfigMap: refused after the permission check (422), nothing changes.
  "POST /api/v1/fault-events/device-info": { permission: "write", ok: 422, call: () => ({ query: "cluster=atlas-a2-demo", body: { unrelated: true } }) },
  // Server-sent events: max=0 ends the stream after its first chunk, so the body can be read to the end.
  "GET /api/v1/events": { permission: "read", ok: 200, call: () => ({ query: "cluster=atlas-a2-demo&max=0" }) },
  "GET /api/v1/fault-events/health": { permission: "read", ok: 200, call: () => ({ query: "cluster=atlas-a2-demo" }) },
  "GET /api/v1/fault-events/inbox": { permission: "read", ok: 200, call: () => ({}) },
  "GET /api/v1/fault-events/stats": { permission: "read", ok: 200, call: () => ({ query: `cluster=atlas-a2-demo&${window24h()}` }) },
  "GET /api/v1/fault-events/report": { permission: "read", ok: 200, call: () => ({ query: `cluster=atlas-a2-demo&${window24h()}&compare=previous` }) },
  "GET /api/v1/fault-events/settings": { permission: "read", ok: 200, call: () => ({ query: "cluster=atlas-a2-demo" }) },
  // Writes the current settings back unchanged.
  "PUT /api/v1/fault-events/settings": { permission: "write", ok: 200, call: () => ({ query: "cluster=atlas-a2-demo", body: faultSettings }) },
  "GET /api/v1/clusters/[id]/ports": { permission: "read", ok: 200, call: () => ({ params: { id: "atlas-a2-demo" } }) },
  // A dry run: planning is an editor's action, but nothing is written unless `apply`.
  "POST /api/v1/clusters/[id]/ports/plan": { permission: "write", ok: 200, call: () => ({ params: { id: "atlas-a2-demo" }, body: {} }) },
  "PUT /api/v1/clusters/[id]/ports/policy": { permission: "write", ok: 200, call: () => ({ params: { id: "atlas-a2-demo" }, body: defaultPortPolicy }) },
  "GET /api/v1/jobs": { permission: "read", ok: 200, call: () => ({ query: "cluster=atlas-a2-demo" }) },
  "POST /api/v1/jobs": { permission: "write", ok: 201, call: () => ({ body: { cluster: "atlas-a2-demo", name: unique("matrix-new-job-"), rankTable: a2RankTable } }) },
  "GET /api/v1/jobs/[id]": { permission: "read", ok: 200, call: () => ({ params: { id: String(jobId) } }) },
  "PATCH /api/v1/jobs/[id]": { permission: "write", ok: 200, call: () => ({ params: { id: String(jobId) }, body: { environment: { HCCL_CONNECT_TIMEOUT: String(++counter) } } }) },
  "DELETE /api/v1/jobs/[id]": { permission: "write", ok: 200, call: async () => ({ params: { id: String(await newJob()) } }) },
  "POST /api/v1/jobs/rings-config": { permission: "write", ok: 201, call: () => ({ query: "cluster=atlas-a2-demo", body: ringsConfig() }) },
  "GET /api/v1/jobs/[id]/affinity": { permission: "read", ok: 200, call: () => ({ params: { id: String(jobId) }, query: "reserve=2&mode=1" }) },
  "GET /api/v1/jobs/[id]/diagnoses": { permission: "read", ok: 200, call: () => ({ params: { id: String(jobId) } }) },
  "GET /api/v1/jobs/[id]/dies": { permission: "read", ok: 200, call: () => ({ params: { id: String(jobId) } }) },
  "GET /api/v1/jobs/[id]/ports": { permission: "read", ok: 200, call: () => ({ params: { id: String(jobId) } }) },
  "GET /api/v1/jobs/[id]/ports/bindings": { permission: "read", ok: 200, call: () => ({ params: { id: String(jobId) }, query: "limit=5&conflict=false" }) },
  "GET /api/v1/jobs/[id]/ports/findings": { permission: "read", ok: 200, call: () => ({ params: { id: String(jobId) }, query: "severity=error" }) },
  "GET /api/v1/jobs/[id]/rank-table": { permission: "read", ok: 200, call: () => ({ params: { id: String(jobId) } }) },
  "GET /api/v1/jobs/[id]/ranks": { permission: "read", ok: 200, call: () => ({ params: { id: String(jobId) }, query: "limit=5&sort=rank&order=desc" }) },
  // A pasted excerpt: diagnosed and stored as a diagnosis of the job.
  "POST /api/v1/jobs/[id]/diagnoses": {
    permission: "write",
    ok: 201,
    call: () => ({ params: { id: String(jobId) }, body: "[ERROR] HCCL(1234,python):2025-11-24-10:17:00.000.000 [transport.cc:10] EI0006: socket timeout", headers: { "content-type": "text/plain" } }),
  },
  "POST /api/v1/affinity/check": { permission: "read", ok: 200, call: () => ({ body: { value: "mode:1", lscpu: kunpeng920Lscpu, topo: a2TopoNotDefault } }) },
  "POST /api/v1/affinity/plan": { permission: "read", ok: 200, call: () => ({ body: { npus: [0, 1], lscpu: kunpeng920Lscpu, topo: a2TopoNotDefault } }) },
  "GET /api/v1/clusters/[id]/cpu-layouts": { permission: "read", ok: 200, call: () => ({ params: { id: "atlas-a2-demo" } }) },
  "GET /api/v1/clusters/[id]/fabric": { permission: "read", ok: 200, call: () => ({ params: { id: "atlas-a2-demo" } }) },
  "PUT /api/v1/clusters/[id]/fabric": { permission: "write", ok: 200, call: () => ({ params: { id: "atlas-a2-demo" }, body: { profile: null } }) },
  "GET /api/v1/clusters/[id]/servers/[serverId]/cpu-layout": { permission: "read", ok: 200, call: () => ({ params: { id: "atlas-a2-demo", serverId: a2ServerId } }) },
  "PUT /api/v1/clusters/[id]/servers/[serverId]/cpu-layout": {
    permission: "write",
    ok: 200,
    call: () => ({ params: { id: "atlas-a2-demo", serverId: a2ServerId }, body: { lscpu: kunpeng920Lscpu, topo: a2TopoNotDefault } }),
  },
  "PUT /api/v1/clusters/[id]/inventory": {
    permission: "write",
    ok: 409,
    call: () => ({ params: { id: "atlas-a2-demo" }, body: { text: a2RankTable, expectedRevision: 999_999 } }),
  },
};

/** app/**\/route.ts on disk → "METHOD /path" for each exported method. */
function discoverRoutes(): { key: string; file: string; method: Method; routePath: string }[] {
  return routeFiles(appRoot).flatMap((file) => {
    const routePath = `/${path.relative(appRoot, path.dirname(file)).split(path.sep).filter((part) => !/^\(.*\)$/.test(part)).join("/")}`;
    return methods.map((method) => ({ key: `${method} ${routePath}`, file, method, routePath }));
  });
}

export type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
export const modules = new Map<string, Record<string, unknown>>();
export async function handlerOf(file: string, method: Method): Promise<Handler | undefined> {
  if (!modules.has(file)) modules.set(file, (await import(/* @vite-ignore */ file)) as Record<string, unknown>);
  const exported = modules.get(file)![method];
  // A streamed route's answer to a method it lacks (methodNotAllowedRoute) is no handler of the matrix.
  return typeof exported === "function" && !isMethodNotAllowedHandler(exported) ? (exported as Handler) : undefined;
}

export let credentials: Awaited<ReturnType<typeof createPrincipals>>;
export let proxy: typeof import("@/proxy").proxy;

export function concretePath(routePath: string, params: Record<string, string | string[]> = {}): string {
  return routePath.replace(/\[\.\.\.(\w+)\]|\[(\w+)\]/g, (_, rest: string | undefined, name: string | undefined) => {
    const value = params[(rest ?? name)!];
    return Array.isArray(value) ? value.map(encodeURIComponent).join("/") : encodeURIComponent(value ?? "");
  });
}

export function headersFor(who: Who, method: Method, body: boolean): Record<string, string> {
  const headers: Record<string, string> = body ? { "content-type": "application/json" } : {};
  if (who.startsWith("user:")) {
    headers.cookie = credentials.cookies[who.slice(5) as Role];
    headers.origin = origin;
    headers["sec-fetch-site"] = "same-origin";
  } else if (who.startsWith("token:")) {
    headers.authorization = `Bearer ${credentials.tokens[who.slice(6) as Role]}`;
  }
  return headers;
}

export function expected(entry: Entry, who: Who): number {
  const rank = { viewer: 0, editor: 1, admin: 2 } as const;
  const needs = { read: 0, write: 1, admin: 2 } as const;
  const kind = who === "anonymous" ? "anonymous" : who.startsWith("user:") ? "user" : "token";
  const ok = typeof entry.ok === "number" ? entry.ok : (entry.ok[kind] ?? NaN);
  if (entry.permission === "public") return ok;
  if (who === "anonymous") return 401;
  const role = who.split(":")[1] as Role;
  return rank[role] >= needs[entry.permission] ? ok : 403;
}

export async function send(route: { file: string; method: Method; routePath: string }, entry: Entry, headers: Record<string, string>, call: Call) {
  const handler = (await handlerOf(route.file, route.method))!;
  const url = `${origin}${concretePath(route.routePath, call.params)}${call.query ? `?${call.query}` : ""}`;
  const body = call.body === undefined ? undefined : typeof call.body === "string" ? call.body : JSON.stringify(call.body);
  const init = { method: route.method, headers: { ...headers, ...call.headers }, body };
  const viaProxy = await proxy(new NextRequest(url, init));
  const proxyStatus = viaProxy.headers.get("x-middleware-next") === "1" ? "next" : viaProxy.status;
  const response = await handler(new Request(url, init), { params: Promise.resolve(call.params ?? {}) });
  return { proxyStatus, status: response.status, body: await response.text() };
}

export const routes = discoverRoutes();

/**
 * In a beforeAll: the demo clusters, a user and a token per role (credentials), a rank table, a job and the fault
 * settings the matrix's calls name. Call at the top of the test file, after withAppDatabase().
 */
export function withAuthorizationMatrix(): void {
  beforeAll(async () => {
    const { db } = testDatabase();
    await seedDemo(db);
    a2ServerId = demoClusters().find((c) => c.slug === "atlas-a2-demo")!.servers[0]!.serverId;
    patchTarget = (await createUser(db, { username: "patch_target", password: "patch-target-password", role: "viewer" }, systemActor)).id;
    credentials = await createPrincipals(db);
    ({ proxy } = await import("@/proxy"));
    rankTableId = await newRankTable();
    const { GET: exportInventory } = await import("@/app/api/v1/clusters/[id]/inventory/rank-table/route");
    const exported = await exportInventory(new Request(`${origin}/api/v1/clusters/atlas-a2-demo/inventory/rank-table`, { headers: { authorization: `Bearer ${credentials.tokens.viewer}` } }), {
      params: Promise.resolve({ id: "atlas-a2-demo" }),
    });
    expect(exported.status).toBe(200);
    a2RankTable = await exported.text();
    jobId = await newJob();
    const { GET: getSettings } = await import("@/app/api/v1/fault-events/settings/route");
    const settings = await getSettings(new Request(`${origin}/api/v1/fault-events/settings?cluster=atlas-a2-demo`, { headers: { authorization: `Bearer ${credentials.tokens.viewer}` } }), {
      params: Promise.resolve({}),
    });
    expect(settings.status).toBe(200);
    const { escalation, retentionDays } = (await settings.json()) as { escalation: unknown; retentionDays: number };
    faultSettings = { escalation, retentionDays };
  });
}
