import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest } from "@/test/auth";
import { testDatabase } from "@/test/database";

withAppDatabase();

let GET: typeof import("./route").GET;
let health: typeof import("../../health/route").GET;
let token: string;

beforeAll(async () => {
  ({ GET } = await import("./route"));
  ({ GET: health } = await import("../../health/route"));
  token = (await createApiToken(testDatabase().db, { name: "reader", role: "viewer" }, systemActor)).token;
});

const list = () => GET(jsonRequest("/api/v1/clusters", "GET", undefined, { authorization: `Bearer ${token}` }), { params: Promise.resolve({}) });

describe("GET /api/v1/clusters", () => {
  it("answers an empty list before anything is seeded, then the demo clusters with their counts", async () => {
    expect(await (await list()).json()).toEqual([]);
    await seedDemo(testDatabase().db);
    const response = await list();
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.map((c: Record<string, unknown>) => [c.name, c.superPods, c.servers, c.npus, c.devices])).toEqual([
      ["Atlas 900 A3 SuperPoD (demo)", 2, 96, 768, 1536],
      ["Atlas 800T A2 training (demo)", 0, 4, 32, 32],
    ]);
    expect(Object.keys(body[0]).sort()).toEqual(
      ["id", "name", "slug", "mode", "superPods", "servers", "npus", "devices", "serversByModel"].sort(),
    );
  });

  it("needs credentials", async () => {
    const response = await GET(jsonRequest("/api/v1/clusters", "GET"), { params: Promise.resolve({}) });
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthenticated");
  });
});

describe("GET /api/health", () => {
  it("reports ok while the database answers, without credentials", async () => {
    const response = await health();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });
});
