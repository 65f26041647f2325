import { describe, expect, it } from "vitest";
import { apiPermission } from "./api-permissions";

describe("apiPermission", () => {
  it.each([
    ["/api/health", "GET", "public"],
    ["/api/auth/sign-in", "POST", "public"],
    ["/api/auth/sign-out", "POST", "read"],
    ["/api/auth/sign-out-everywhere", "POST", "read"],
    ["/api/nothing", "GET", "public"],
    ["/api/v1/clusters", "GET", "read"],
    ["/api/v1/clusters/7/topology", "HEAD", "read"],
    ["/api/v1/clusters", "POST", "write"],
    ["/api/v1/rank-tables/3", "DELETE", "write"],
    ["/api/v1/rank-tables/validate", "POST", "read"],
    ["/api/v1/users", "GET", "admin"],
    ["/api/v1/tokens/4", "DELETE", "admin"],
    ["/api/v1/audit", "GET", "admin"],
    ["/api/v1/usersx", "GET", "read"],
    ["/api/v1x", "POST", "public"],
  ] as const)("%s %s needs %s", (path, method, permission) => {
    expect(apiPermission(path, method)).toBe(permission);
  });
});
