import { describe, expect, it } from "vitest";
import { activeNavKey } from "./nav-items";

describe("activeNavKey", () => {
  it.each([
    ["/", "overview"],
    ["/topology", "topology"],
    ["/topology/server/12", "topology"],
    ["/rank-tables", "rankTables"],
    ["/faults?range=24h", "overview"],
    ["/faults", "faults"],
    ["/jobs/12", "jobs"],
    ["/affinity", "affinity"],
    ["/ports", "ports"],
    ["/topologyx", "overview"],
    ["/admin/users", "users"],
    ["/admin/tokens", "tokens"],
    ["/admin/audit", "audit"],
  ])("%s → %s", (path, key) => {
    expect(activeNavKey(path)).toBe(key);
  });
});
