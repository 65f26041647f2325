import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "@/db/seed";
import { testDatabase } from "@/test/database";

let GET: typeof import("./route").GET;
let health: typeof import("../../health/route").GET;

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabase().url;
  ({ GET } = await import("./route"));
  ({ GET: health } = await import("../../health/route"));
});
afterAll(() => {
  delete process.env.DATABASE_URL;
});

describe("GET /api/v1/clusters", () => {
  it("answers an empty list before anything is seeded, then the demo clusters with their counts", async () => {
    expect(await (await GET()).json()).toEqual([]);
    await seedDemo(testDatabase().db);
    const response = await GET();
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
});

describe("GET /api/health", () => {
  it("reports ok while the database answers", async () => {
    const response = await health();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });
});
