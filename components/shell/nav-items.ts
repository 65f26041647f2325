export const navItems = [
  { href: "/", key: "overview" },
  { href: "/topology", key: "topology" },
  { href: "/rank-tables", key: "rankTables" },
  { href: "/jobs", key: "jobs" },
  { href: "/faults", key: "faults" },
  { href: "/ports", key: "ports" },
  { href: "/affinity", key: "affinity" },
] as const;

/** Shown to admins only (the pages check the role on the server as well). */
export const adminNavItems = [
  { href: "/admin/users", key: "users" },
  { href: "/admin/tokens", key: "tokens" },
  { href: "/admin/audit", key: "audit" },
] as const;

export type NavKey = (typeof navItems)[number]["key"] | (typeof adminNavItems)[number]["key"];

/** The nav entry a path belongs to: the longest matching prefix, so /topology/x highlights Topology. */
export function activeNavKey(pathname: string): NavKey {
  const match = [...navItems, ...adminNavItems]
    .filter((item) => (item.href === "/" ? pathname === "/" : pathname === item.href || pathname.startsWith(`${item.href}/`)))
    .sort((a, b) => b.href.length - a.href.length)[0];
  return match?.key ?? "overview";
}
