/**
 * The permission model. Three roles, each including the one before it:
 * - viewer (operators, managers): read everything;
 * - editor (SREs): also create and change rank tables, inventory and fault records;
 * - admin: also manage users, API tokens, and read the audit log.
 */
export const roles = ["viewer", "editor", "admin"] as const;
export type Role = (typeof roles)[number];

/** What a request needs: `public` (no sign-in), `read`, `write` (domain data), `admin` (users, tokens, audit). */
export const permissions = ["public", "read", "write", "admin"] as const;
export type Permission = (typeof permissions)[number];

const rank: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };
const needed: Record<Exclude<Permission, "public">, Role> = { read: "viewer", write: "editor", admin: "admin" };

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (roles as readonly string[]).includes(value);
}

/** Whether a role may do what a permission guards. `undefined` is an anonymous caller. */
export function can(role: Role | undefined, permission: Permission): boolean {
  if (permission === "public") return true;
  if (role === undefined) return false;
  return rank[role] >= rank[needed[permission]];
}

/** The least role that holds a permission (for error messages and the UI). */
export function minimumRole(permission: Exclude<Permission, "public">): Role {
  return needed[permission];
}
