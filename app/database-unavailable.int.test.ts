/** Every guarded route of the authorisation matrix (test/authorization.ts) with the database unreachable: 503 with Retry-After. */
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { withAppDatabase } from "@/test/app-database";
import { origin } from "@/test/auth";
import { concretePath, credentials, handlerOf, headersFor, matrix, proxy, routes, send, withAuthorizationMatrix } from "@/test/authorization";

withAppDatabase();
withAuthorizationMatrix();

describe("with the database unreachable", () => {
  const globals = globalThis as typeof globalThis & { rankscopeDatabase?: { pool: { end(): Promise<void> } }; rankscopeAuth?: unknown };

  it("every guarded route answers 503 with Retry-After, through the proxy and the handler, and pages say so instead of asking to sign in", async () => {
    const { connectDatabase } = await import("@/db/client");
    const working = globals.rankscopeDatabase;
    // Nothing listens on port 1: connections are refused, as while PostgreSQL restarts.
    const dead = connectDatabase("postgres://rankscope@127.0.0.1:1/rankscope");
    globals.rankscopeDatabase = dead;
    globals.rankscopeAuth = undefined;
    try {
      const answers = new Set<string>();
      for (const [key, entry] of Object.entries(matrix)) {
        if (entry.permission === "public" && key !== "POST /api/auth/sign-in") continue;
        const route = routes.find((r) => r.key === key)!;
        const call = (await entry.call?.()) ?? {};
        for (const who of ["user:admin", "token:admin"] as const) {
          const headers = headersFor(who, route.method, call.body !== undefined);
          const handler = (await handlerOf(route.file, route.method))!;
          const url = `${origin}${concretePath(route.routePath, call.params)}${call.query ? `?${call.query}` : ""}`;
          const body = call.body === undefined ? undefined : typeof call.body === "string" ? call.body : JSON.stringify(call.body);
          const init = { method: route.method, headers: { ...headers, ...call.headers }, body };
          const viaProxy = await proxy(new NextRequest(url, init));
          const direct = await handler(new Request(url, init), { params: Promise.resolve(call.params ?? {}) });
          for (const [where, response] of [["proxy", viaProxy], ["handler", direct]] as const) {
            if (key === "POST /api/auth/sign-in" && where === "proxy") continue; // public: the proxy lets it through
            const error = ((await response.json()) as { error?: { code?: string } }).error;
            answers.add(`${key} as ${who} (${where}): ${response.status} ${error?.code} retry-after ${response.headers.get("retry-after")}`);
          }
        }
      }
      const wrong = [...answers].filter((line) => !line.endsWith(": 503 database_unavailable retry-after 5"));
      expect(wrong).toEqual([]);
      expect(answers.size).toBeGreaterThan(60);
      const page = await proxy(new NextRequest(`${origin}/topology`, { headers: { cookie: credentials.cookies.viewer, "accept-language": "zh-CN" } }));
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe("5");
      expect(page.headers.get("location")).toBeNull();
      expect(await page.text()).toContain("数据库不可用");
    } finally {
      globals.rankscopeDatabase = working;
      globals.rankscopeAuth = undefined;
      await dead.pool.end();
    }
    // And back: nothing to restart.
    const { status } = await send(routes.find((r) => r.key === "GET /api/v1/me")!, matrix["GET /api/v1/me"]!, headersFor("user:admin", "GET", false), {});
    expect(status).toBe(200);
  });
});
