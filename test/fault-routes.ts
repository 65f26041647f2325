/**
 * The fault-event routes as a feeder and a console call them, for the integration tests beside those routes: the A3
 * demo cluster, a viewer and an editor token, POST /api/v1/fault-events and its timeline (GET).
 */
import { beforeAll, expect } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { jsonRequest, origin } from "./auth";
import { testDatabase } from "./database";
import { postedEvents } from "./fault-events";

// Response bodies are read loosely: the assertions say what they must hold.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

export type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
export const none = { params: Promise.resolve({}) };

let post: Handler;
let get: Handler;
const tokens = { viewer: "", editor: "" };

/**
 * In a beforeAll: the A3 demo cluster (2 pods of 4 servers) and the tokens "faults viewer" and "faults editor" (the
 * audit log names the editor), then `stored` posted by the editor when given. Call at the top of the test file, after
 * withAppDatabase().
 */
export function withFaultRoutes(stored?: () => unknown[]): void {
  beforeAll(async () => {
    ({ POST: post, GET: get } = await import("@/app/api/v1/fault-events/route"));
    const { db } = testDatabase();
    await seedDemo(db, [demoA3Cluster(2, 4)]);
    tokens.viewer = (await createApiToken(db, { name: "faults viewer", role: "viewer" }, systemActor)).token;
    tokens.editor = (await createApiToken(db, { name: "faults editor", role: "editor" }, systemActor)).token;
    if (stored) expect((await send(stored())).status).toBe(200);
  });
}

export const auth = (role: keyof typeof tokens = "editor") => ({ authorization: `Bearer ${tokens[role]}` });
export const t0 = Date.parse("2026-11-20T08:00:00Z");
export const { at, linkDown } = postedEvents(t0);

/** POST /api/v1/fault-events (the handler: call it inside a test). */
export const postFaultEvents = (request: Request) => post(request, none);

export async function send(events: unknown[], atomic: "all" | "item" = "all", role: keyof typeof tokens = "editor") {
  const response = await post(jsonRequest(`/api/v1/fault-events?atomic=${atomic}`, "POST", events, auth(role)), none);
  return { status: response.status, body: (await response.json()) as Record<string, Loose> };
}

/** GET /api/v1/fault-events of the A3 demo cluster as the viewer; `query` adds the window, target, kind. */
export async function timeline(query: string) {
  const response = await get(new Request(`${origin}/api/v1/fault-events?cluster=atlas-a3-demo&${query}`, { headers: auth("viewer") }), none);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { events: Loose[]; total: number; density: { buckets: Loose[] } };
}

/**
 * Link downs on sp0-node00 (10 s, 45 s, one still open on die 2) and four flaps on sp0-node02/5, the first batches
 * route.int.test.ts stores: what the statistics and the health overlay tests read.
 */
export const storedLinkDowns = () => [
  linkDown("sp0-node00", 0, 0, 10),
  linkDown("sp0-node00", 1, 0, 45),
  { ...linkDown("sp0-node00", 2, 0, null), id: "collector-42" },
  ...[0, 30, 60, 90].map((s) => linkDown("sp0-node02", 5, 1000 + s, 1000 + s + 8)),
];
