import { describe, expect, it } from "vitest";
import { can, isRole, minimumRole, permissions, roles, type Permission, type Role } from "./roles";

describe("can", () => {
  const table: Record<Permission, Record<Role | "anonymous", boolean>> = {
    public: { anonymous: true, viewer: true, editor: true, admin: true },
    read: { anonymous: false, viewer: true, editor: true, admin: true },
    write: { anonymous: false, viewer: false, editor: true, admin: true },
    admin: { anonymous: false, viewer: false, editor: false, admin: true },
  };
  for (const permission of permissions) {
    for (const who of ["anonymous", ...roles] as const) {
      it(`${who} ${table[permission][who] ? "may" : "may not"} ${permission}`, () => {
        expect(can(who === "anonymous" ? undefined : who, permission)).toBe(table[permission][who]);
      });
    }
  }
});

describe("roles", () => {
  it("recognises exactly the three roles", () => {
    expect(roles.every(isRole)).toBe(true);
    expect(isRole("root")).toBe(false);
    expect(isRole(undefined)).toBe(false);
  });
  it("names the least role for each permission", () => {
    expect([minimumRole("read"), minimumRole("write"), minimumRole("admin")]).toEqual(["viewer", "editor", "admin"]);
  });
});
