import { expect, test } from "@playwright/test";

test.describe("API", () => {
  test("health reports the database as reachable", async ({ request }) => {
    const response = await request.get("/api/health");
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });

  test("clusters lists the demo inventory with its counts", async ({ request }) => {
    const clusters = await (await request.get("/api/v1/clusters")).json();
    expect(clusters).toEqual([
      expect.objectContaining({ name: "Atlas 900 A3 SuperPoD (demo)", superPods: 2, servers: 96, npus: 768, devices: 1536 }),
      expect.objectContaining({ name: "Atlas 800T A2 training (demo)", superPods: 0, servers: 4, npus: 32, devices: 32 }),
      // Seeded for e2e/topology-scale.spec.ts (RANKSCOPE_SEED_SCALE=1).
      expect.objectContaining({ name: "SuperCluster (e2e, 64 super pods)", superPods: 64, servers: 1073, npus: 8584, devices: 17168 }),
      expect.objectContaining({ name: "A2 plain servers (e2e, 1,040 servers)", superPods: 0, servers: 1040, npus: 8320, devices: 8320 }),
    ]);
  });

  test("unknown API paths answer 404 in the standard error shape", async ({ request }) => {
    const response = await request.get("/api/v1/no-such-thing");
    expect(response.status()).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: "not_found", message: "no API endpoint at GET /api/v1/no-such-thing" },
    });
  });
});
