import { beforeAll, describe, expect, it } from "vitest";
import { withAppDatabase } from "@/test/app-database";
import { origin } from "@/test/auth";
import { at, auth, none, storedLinkDowns, withFaultRoutes, type Handler, type Loose } from "@/test/fault-routes";

withAppDatabase();
withFaultRoutes(storedLinkDowns);

let stats: Handler;

beforeAll(async () => {
  ({ GET: stats } = await import("./route"));
});

describe("statistics", () => {
  it("counts by kind and level, MTTR, availability", async () => {
    const response = await stats(new Request(`${origin}/api/v1/fault-events/stats?cluster=atlas-a3-demo&from=${at(-100)}&to=${at(40_000)}`, { headers: auth("viewer") }), none);
    const body = (await response.json()) as Record<string, Loose>;
    expect(response.status).toBe(200);
    expect(body.byKind.find((k: { kind: string }) => k.kind === "roce-link-down").count).toBeGreaterThan(5);
    expect(body.mttrMs).toBeGreaterThan(0);
    expect(body.availability.map((a: { superPodId: string }) => a.superPodId)).toEqual(["0", "1"]);
    expect(body.availability[0].availability).toBeLessThanOrEqual(1);
  });
});
