/** The methods the routes of the authorisation matrix (test/authorization.ts) do not have: 405 in the standard error shape, with Allow. */
import path from "node:path";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { streamedApiRoutes } from "@/server/http/body-limits";
import { isMethodNotAllowedHandler } from "@/server/http/method-not-allowed";
import { withAppDatabase } from "@/test/app-database";
import { origin } from "@/test/auth";
import { concretePath, credentials, matrix, modules, proxy, withAuthorizationMatrix, type Handler, type Method } from "@/test/authorization";
import { appRoot } from "@/test/route-files";

withAppDatabase();
withAuthorizationMatrix();

describe("methods a route does not have", () => {
  it("get 405 from the proxy in the standard error shape, with Allow", async () => {
    const byPath = new Map<string, { routePath: string; methods: Set<Method> }>();
    for (const key of Object.keys(matrix)) {
      const [method, routePath] = key.split(" ") as [Method, string];
      if (routePath.includes("[...")) continue;
      const entry = byPath.get(routePath) ?? { routePath, methods: new Set<Method>() };
      entry.methods.add(method);
      byPath.set(routePath, entry);
    }
    let checked = 0;
    for (const { routePath, methods: exported } of byPath.values()) {
      const url = `${origin}${concretePath(routePath, { id: "1", serverId: "node-1" })}`;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
        if (exported.has(method)) continue;
        const response = await proxy(new NextRequest(url, { method, headers: { authorization: `Bearer ${credentials.tokens.admin}` } }));
        const allow = response.headers.get("allow")?.split(", ") ?? [];
        expect([routePath, method, response.status, allow.includes("OPTIONS") && [...exported].every((m) => allow.includes(m))]).toEqual([routePath, method, 405, true]);
        expect((await response.json()).error.code).toBe("method_not_allowed");
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("with a body, to the streamed routes (which skip the proxy), get the same 405 from the route itself", async () => {
    let checked = 0;
    for (const routePath of streamedApiRoutes) {
      const file = path.join(appRoot, routePath.replace(/^\//, ""), "route.ts");
      const url = `${origin}${concretePath(routePath, { id: "1" })}`;
      if (!modules.has(file)) modules.set(file, (await import(/* @vite-ignore */ file)) as Record<string, unknown>);
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
        const key = `${method} ${routePath}`;
        if (key in matrix) continue;
        const exported = modules.get(file)![method];
        expect([key, isMethodNotAllowedHandler(exported)]).toEqual([key, true]);
        // A Content-Type is what makes the matcher leave the request out (a web Request cannot give a GET a body).
        const init = { method, headers: { authorization: `Bearer ${credentials.tokens.admin}`, "content-type": "application/json" }, body: method === "GET" ? undefined : JSON.stringify({ name: "x" }) };
        const response = await (exported as Handler)(new Request(url, init), { params: Promise.resolve({ id: "1" }) });
        const viaProxy = await proxy(new NextRequest(url, init));
        expect([key, response.status, response.headers.get("allow")]).toEqual([key, 405, viaProxy.headers.get("allow")]);
        expect(await response.json()).toEqual(await viaProxy.json());
        expect(response.headers.get("content-security-policy"), key).toBe(viaProxy.headers.get("content-security-policy"));
        expect(response.headers.get("x-content-type-options"), key).toBe("nosniff");
        checked++;
      }
    }
    // e.g. PATCH /api/v1/rank-tables with a JSON body: Next.js's own answer was an empty 405 without Allow.
    expect(checked).toBeGreaterThan(20);
  });
});
