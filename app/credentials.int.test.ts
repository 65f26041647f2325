/** Per route of the authorisation matrix (test/authorization.ts): a revoked token, a forged cookie, a cross-site cookie mutation, an oversized body. */
import { describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken, revokeApiToken } from "@/db/queries/tokens";
import { withAppDatabase } from "@/test/app-database";
import { origin } from "@/test/auth";
import { credentials, matrix, routes, send, withAuthorizationMatrix } from "@/test/authorization";
import { testDatabase } from "@/test/database";

withAppDatabase();
withAuthorizationMatrix();

describe("credentials that must not work, on every non-public route", () => {
  const guarded = Object.entries(matrix).filter(([, entry]) => entry.permission !== "public");

  it("a revoked token gets 401", async () => {
    const { db } = testDatabase();
    const created = await createApiToken(db, { name: "revoked admin", role: "admin" }, systemActor);
    await revokeApiToken(db, created.id, systemActor);
    for (const [key, entry] of guarded) {
      const route = routes.find((r) => r.key === key)!;
      const call = (await entry.call?.()) ?? {};
      const headers = { authorization: `Bearer ${created.token}`, ...(call.body === undefined ? {} : { "content-type": "application/json" }) };
      const { status, proxyStatus, body } = await send(route, entry, headers, call);
      expect([key, status, proxyStatus, JSON.parse(body).error.message]).toEqual([key, 401, 401, "the API token is unknown, revoked or expired"]);
    }
  });

  it("a forged session cookie gets 401", async () => {
    const [name, value = ""] = credentials.cookies.admin.split("=");
    const forged = `${name}=${value.slice(0, 10)}${value.slice(10).replace(/[A-Za-z]/, (c) => (c === "a" ? "b" : "a"))}`;
    for (const [key, entry] of guarded) {
      const route = routes.find((r) => r.key === key)!;
      const call = (await entry.call?.()) ?? {};
      const headers = { cookie: forged, origin, ...(call.body === undefined ? {} : { "content-type": "application/json" }) };
      const { status, proxyStatus } = await send(route, entry, headers, call);
      expect([key, status, proxyStatus]).toEqual([key, 401, 401]);
    }
  });

  it("a cookie-authenticated mutation from another site gets 403", async () => {
    for (const [key, entry] of guarded) {
      const route = routes.find((r) => r.key === key)!;
      if (route.method === "GET" || route.method === "HEAD") continue;
      const call = (await entry.call?.()) ?? {};
      for (const crossSite of [{ origin: "https://evil.example" }, {}] as Record<string, string>[]) {
        const headers = { cookie: credentials.cookies.admin, ...crossSite, ...(call.body === undefined ? {} : { "content-type": "application/json" }) };
        const { status, body } = await send(route, entry, headers, call);
        expect([key, status, JSON.parse(body).error.code]).toEqual([key, 403, "csrf_rejected"]);
      }
    }
  });

  it("a body over the limit gets 413 on every route that takes one", async () => {
    const withBody = Object.entries(matrix).filter(([key]) => /^(POST|PUT|PATCH) /.test(key) && !key.includes("[...path]") && !key.includes("sign-out"));
    expect(withBody.length).toBeGreaterThan(0);
    for (const [key, entry] of withBody) {
      const route = routes.find((r) => r.key === key)!;
      const call = (await entry.call?.()) ?? {};
      // Declared larger than any route takes: the proxy refuses it before the body is read.
      const declared = { authorization: `Bearer ${credentials.tokens.admin}`, "content-type": "application/json", "content-length": String(64 * 1024 * 1024) };
      const { proxyStatus } = await send(route, entry, declared, { ...call, body: "{}" });
      expect([key, proxyStatus]).toEqual([key, 413]);
    }
    // Routes with small JSON bodies refuse more than their own limit (64 KiB, 4 KiB for sign-in and accounts),
    // counting the bytes actually sent, whatever Content-Length says.
    for (const key of ["POST /api/auth/sign-in", "POST /api/v1/users", "PATCH /api/v1/users/[id]", "POST /api/v1/tokens"]) {
      const entry = matrix[key]!;
      const route = routes.find((r) => r.key === key)!;
      const call = (await entry.call?.()) ?? {};
      const headers = { authorization: `Bearer ${credentials.tokens.admin}`, "content-type": "application/json" };
      const { status } = await send(route, entry, headers, { ...call, body: JSON.stringify({ padding: "x".repeat(2 * 1024 * 1024) }) });
      expect([key, status]).toEqual([key, 413]);
    }
  });
});
