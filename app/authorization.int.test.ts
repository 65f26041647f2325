/**
 * The authorisation matrix (test/authorization.ts): every method of every route handler under app/, called as
 * anonymous, viewer, editor, admin (session cookies) and as viewer, editor and admin API tokens. Each call goes
 * through the proxy (the central check) and the handler (its own check); both must give the expected status.
 */
import { describe, expect, it } from "vitest";
import type { Role } from "@/lib/auth/roles";
import { withAppDatabase } from "@/test/app-database";
import { signInCookie, testPassword } from "@/test/auth";
import { callers, credentials, expected, handlerOf, headersFor, matrix, routes, send, withAuthorizationMatrix } from "@/test/authorization";

withAppDatabase();
withAuthorizationMatrix();

describe("the authorisation matrix", () => {
  it("has an entry for every route handler method, and no entry without one", async () => {
    const exported: string[] = [];
    for (const route of routes) if (await handlerOf(route.file, route.method)) exported.push(route.key);
    expect(exported.filter((key) => !(key in matrix)), "route handlers without a matrix entry").toEqual([]);
    expect(Object.keys(matrix).filter((key) => !exported.includes(key)), "matrix entries without a route handler").toEqual([]);
  });

  for (const key of Object.keys(matrix)) {
    const entry = matrix[key]!;
    it(`${key}: ${entry.permission}`, async () => {
      const route = routes.find((r) => r.key === key);
      expect(route, `${key} is not a route on disk`).toBeDefined();
      const results: Record<string, string> = {};
      const wanted: Record<string, string> = {};
      for (const who of callers) {
        const call = (await entry.call?.()) ?? {};
        if (entry.endsSessions && who.startsWith("user:")) {
          const role = who.slice(5) as Role;
          credentials.cookies[role] = await signInCookie(`test_${role}`, testPassword(role));
        }
        const { proxyStatus, status, body } = await send(route!, entry, headersFor(who, route!.method, call.body !== undefined), call);
        const want = expected(entry, who);
        // The proxy lets allowed calls through and answers denied ones itself with the same status.
        const proxyWant = want === 401 || want === 403 ? String(want) : "next";
        results[who] = `${status} (proxy ${proxyStatus})`;
        wanted[who] = `${want} (proxy ${proxyWant})`;
        if (status !== want) results[who] += ` ${body.slice(0, 200)}`;
        if (status >= 400) expect(JSON.parse(body || "{}"), `${key} as ${who}: standard error shape`).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
      }
      if (entry.endsSessions) {
        for (const role of ["viewer", "editor", "admin"] as const) credentials.cookies[role] = await signInCookie(`test_${role}`, testPassword(role));
      }
      expect(results).toEqual(wanted);
    });
  }
});
