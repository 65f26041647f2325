/** The incremental validator on "1.0"/"1.2" tables: each edit is checked incrementally and equals a full run. */
import { describe, expect, it } from "vitest";
import { applyEdit, type Edit } from "../../rank-table-workspace/edit";
import type { JsonObject, JsonValue, ValidationReport } from "../model";
import { superPodTable } from "../test-support/tables";
import { validateRankTable } from "../validate";
import { IncrementalValidator, type ValidationRun } from "./index";

function session(table: JsonValue = superPodTable()) {
  const validator = new IncrementalValidator();
  let current = table;
  validator.validate(current);
  const step = (next: JsonValue, run: ValidationRun = "incremental"): ValidationReport => {
    current = next;
    const report = validator.validate(current);
    expect(report).toEqual(validateRankTable(current));
    expect(validator.lastRun).toBe(run);
    return report;
  };
  return {
    get table() {
      return current as JsonObject;
    },
    step,
    edit: (edit: Edit, run?: ValidationRun) => step(applyEdit(current, edit), run),
  };
}

const codes = (report: ValidationReport) => report.issues.map((issue) => `${issue.code} ${issue.path}`);
const servers = (table: JsonObject) => table.server_list as JsonObject[];

describe('IncrementalValidator on a "1.2" table (the seed: 2 pods × 2 servers × 4 devices)', () => {
  it("a device_ip repeated in another server is RT036 on the later one, and its partner's backup follows the owner", () => {
    const s = session();
    const taken = (servers(s.table)[0]!.device as JsonObject[])[1]!.device_ip as string;
    const report = s.edit({ type: "set", path: { server: 2, device: 1 }, field: "device_ip", value: taken });
    expect(codes(report)).toContain("RT036 /server_list/2/device/1/device_ip");
    expect(codes(s.edit({ type: "set", path: { server: 2, device: 1 }, field: "device_ip", value: "192.168.102.102" }))).not.toContain("RT036 /server_list/2/device/1/device_ip");
  });

  it("a server added to the first pod shifts the servers after it: their findings name their new places", () => {
    const s = session();
    s.edit({ type: "set", path: { server: 3, device: 0 }, field: "rank_id", value: "0" });
    const report = s.edit({ type: "addServer", pod: 0 });
    expect(codes(report)).toContain("RT046 /server_list/4/device/0/rank_id");
    expect(report.stats).toEqual({ superPods: 2, servers: 5, devices: 20 });
    s.edit({ type: "removeServer", server: 2 });
  });

  it("a server moved to another pod repeats that pod's super_device_ids (RT034 on the servers not edited too)", () => {
    const s = session();
    expect(codes(s.edit({ type: "moveServer", server: 0, pod: 1 }))).toContain("RT034 /server_list/3/device/0/super_device_id");
    expect(codes(s.edit({ type: "set", path: { pod: 1 }, field: "super_pod_id", value: "0" }))).toContain("RT061 /super_pod_list/1/super_pod_id");
    s.edit({ type: "set", path: { server: 0 }, field: "server_id", value: "lonely" });
    expect(codes(s.edit({ type: "moveServer", server: 3, pod: 0 }))).not.toContain("RT034 /server_list/3/device/0/super_device_id");
  });

  it("a super pod added and removed in the JSON view, and the number of devices crossing a rank_id (RT047)", () => {
    const s = session();
    const pods = (s.table.super_pod_list as JsonValue[]).slice();
    s.step({ ...s.table, super_pod_list: [...pods, { super_pod_id: "2", server_list: [{ server_id: "node_9" }] }] });
    s.step({ ...s.table, super_pod_list: pods });
    // Rank 15 is the last device's: with 15 devices it is out of range, though its server was not edited.
    expect(codes(s.edit({ type: "removeDevice", server: 0, device: 0 }))).toContain("RT047 /server_list/3/device/3/rank_id");
    expect(codes(s.edit({ type: "addDevice", server: 0 }))).not.toContain("RT047 /server_list/3/device/3/rank_id");
  });

  it("a change of version, or of super_pod_list's presence, is validated in full", () => {
    const s = session();
    s.edit({ type: "set", path: {}, field: "version", value: "1.0" }, "full");
    s.edit({ type: "set", path: {}, field: "server_count", value: "3" });
    const { super_pod_list: _pods, ...withoutPods } = s.table;
    s.step(withoutPods, "full");
  });

  it("deferBuild: the first report is a full run's; an edit before half the build is a full run, after it incremental", () => {
    const validator = new IncrementalValidator({ deferBuild: true });
    const table = superPodTable();
    expect(validator.validate(table)).toEqual(validateRankTable(table));
    expect([validator.lastRun, validator.building]).toEqual(["full", true]);
    const edited = applyEdit(table, { type: "set", path: { server: 2, device: 1 }, field: "rank_id", value: "0" });
    expect(validator.validate(edited)).toEqual(validateRankTable(edited));
    // The build began again for the edited table (the one it was for is gone).
    expect([validator.lastRun, validator.building]).toEqual(["full", true]);
    // Past half of the 4 servers' reads and checks: the next edit finishes the build, then is incremental.
    for (let step = 0; step < 6; step++) validator.buildSome(0);
    const again = applyEdit(edited, { type: "set", path: { server: 2, device: 1 }, field: "rank_id", value: "9" });
    expect(validator.validate(again)).toEqual(validateRankTable(again));
    expect([validator.lastRun, validator.building]).toEqual(["incremental", false]);
  });
});
