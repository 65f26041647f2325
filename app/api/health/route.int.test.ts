import { describe, expect, it, vi } from "vitest";
import { freePort } from "@/db/embedded";

describe("GET /api/health with the database down", () => {
  it("answers 503 with the reason in the standard error shape", async () => {
    // A port nobody listens on: the connection is refused.
    process.env.DATABASE_URL = `postgres://nobody@127.0.0.1:${await freePort()}/nothing`;
    vi.resetModules();
    const { GET } = await import("./route");
    const response = await GET();
    expect(response.status).toBe(503);
    const body = await response.json();
    expect(body).toMatchObject({
      status: "error",
      database: "unreachable",
      error: { code: "database_unavailable" },
    });
    expect(body.error.message).toMatch(/ECONNREFUSED/);
    delete process.env.DATABASE_URL;
  });
});
