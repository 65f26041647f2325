import { describe, expect, it } from "vitest";
import { demoA2Cluster, demoA3Cluster } from "@/lib/inventory/demo";
import { validateRankTable } from "@/lib/rank-table";
import { inventoryOutline, tableFromInventory } from "./from-inventory";

describe("build from inventory", () => {
  const a3 = demoA3Cluster(2, 4);

  it("builds a valid super pod table of the whole cluster, or of chosen super pods and servers", () => {
    const whole = tableFromInventory(a3, { version: "1.2" });
    const report = validateRankTable(whole);
    expect(report.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    expect(report.stats).toEqual({ superPods: 2, servers: 8, devices: 128 });

    const outline = inventoryOutline(a3);
    const pod = outline.superPods[1]!;
    const part = tableFromInventory(a3, { version: "1.2", superPods: [pod.id], servers: [outline.superPods[0]!.servers[0]!] });
    expect(validateRankTable(part).stats).toEqual({ superPods: 2, servers: 5, devices: 80 });
    expect(validateRankTable(part).valid).toBe(true);
  });

  it("lays ports out from a base port and writes AI Server tables as 1.0 without backups", () => {
    const table = tableFromInventory(a3, { version: "1.2", basePort: 20000 }) as { server_list: { device: Record<string, string>[] }[] };
    expect(table.server_list[0]!.device[0]).toMatchObject({ host_port: "20000", device_port: "20016" });
    const a2 = tableFromInventory(demoA2Cluster(2), { version: "1.0" });
    const report = validateRankTable(a2);
    expect(report).toMatchObject({ valid: true, version: "1.0", mode: "ai-server" });
    expect(JSON.stringify(a2)).not.toContain("backup_device_ip");
    expect(() => tableFromInventory(a3, { version: "1.2", servers: ["nope"] })).toThrow(RangeError);
  });
});
