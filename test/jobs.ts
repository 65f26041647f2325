/** The jobs routes as a collector calls them, for the integration tests beside those routes: the A2 demo cluster and an editor token. */
import { beforeAll } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { demoA2Cluster } from "@/lib/inventory/demo";
import { testDatabase } from "./database";

export type Handler<P = Record<string, string>> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;
export const none = { params: Promise.resolve({ id: "" }) };
export const idOf = (id: number) => ({ params: Promise.resolve({ id: String(id) }) });
export const a2 = demoA2Cluster();

let token = "";
export const auth = () => ({ authorization: `Bearer ${token}` });

/** In a beforeAll: the A2 demo cluster and the token "jobs editor". Call at the top of the test file, after withAppDatabase(). */
export function withJobsCluster(): void {
  beforeAll(async () => {
    const { db } = testDatabase();
    await seedDemo(db, [a2]);
    token = (await createApiToken(db, { name: "jobs editor", role: "editor" }, systemActor)).token;
  });
}
