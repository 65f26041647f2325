import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { freePort } from "@/db/embedded";
import { withAppDatabase } from "@/test/app-database";
import { createPrincipals, origin } from "@/test/auth";
import { testDatabase } from "@/test/database";

withAppDatabase();

const globals = globalThis as typeof globalThis & { rankscopeDatabase?: { pool: { end(): Promise<void> } }; rankscopeAuth?: unknown };

describe("the proxy while the database is unreachable", () => {
  it("gives a signed-in user the self-reloading 'database unavailable' page (503, Retry-After, their language), not the sign-in page, and API callers 503 in the error shape", async () => {
    const { cookies, tokens } = await createPrincipals(testDatabase().db);
    const { proxy } = await import("@/proxy");
    // What a PostgreSQL restart looks like to the app: its next connection is refused.
    await globals.rankscopeDatabase?.pool.end();
    globals.rankscopeDatabase = undefined;
    globals.rankscopeAuth = undefined;
    process.env.DATABASE_URL = `postgres://nobody@127.0.0.1:${await freePort()}/nothing`;

    const page = await proxy(new NextRequest(`${origin}/topology?cluster=atlas-a2-demo`, { headers: { cookie: cookies.viewer, "accept-language": "zh-CN,zh;q=0.9" } }));
    expect(page.status).toBe(503);
    expect(page.headers.get("location")).toBeNull();
    expect(page.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain("数据库不可用");
    expect(html).toContain(`<meta http-equiv="refresh" content="${page.headers.get("retry-after")}">`);
    expect(html).not.toMatch(/<script/i);

    const api = await proxy(new NextRequest(`${origin}/api/v1/clusters`, { headers: { authorization: `Bearer ${tokens.viewer}` } }));
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await api.json()).error.code).toBe("database_unavailable");

    // Without a session there is nothing to read: the sign-in page, as always.
    const visitor = await proxy(new NextRequest(`${origin}/topology`));
    expect(visitor.status).toBe(307);
    expect(visitor.headers.get("location")).toMatch(/\/sign-in\?next=%2Ftopology$/);
  });
});
