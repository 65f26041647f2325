import { beforeAll, describe, expect, it } from "vitest";
import { withAppDatabase } from "@/test/app-database";
import { origin } from "@/test/auth";
import { auth, none, storedLinkDowns, withFaultRoutes, type Handler } from "@/test/fault-routes";

withAppDatabase();
withFaultRoutes(storedLinkDowns);

let health: Handler;

beforeAll(async () => {
  ({ GET: health } = await import("./route"));
});

describe("health", () => {
  it("lists open faults per die for the topology overlay", async () => {
    const response = await health(new Request(`${origin}/api/v1/fault-events/health?cluster=atlas-a3-demo`, { headers: auth("viewer") }), none);
    const body = (await response.json()) as { targets: { serverId: string; deviceId: number; tone: string }[] };
    expect(body.targets).toContainEqual(expect.objectContaining({ serverId: "sp0-node00", deviceId: 2, tone: "degraded" }));
  });
});
