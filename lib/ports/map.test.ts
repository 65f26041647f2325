import { describe, expect, it } from "vitest";
import { mapCells, portBands } from "./map";
import type { PortHostRow } from "./report";

const binding = (jobId: number, from: number, to: number, conflict = false, source = "HCCL_IF_BASE_PORT") => ({
  jobId,
  jobName: `job-${jobId}`,
  serverId: "n0",
  plane: "host" as const,
  scope: "host:n0",
  ports: { from, to },
  source: source as "HCCL_IF_BASE_PORT",
  defaulted: true,
  ranks: [0],
  shared: true,
  conflict,
});
const row = (bindings: PortHostRow["bindings"]): PortHostRow => ({ serverId: "n0", model: null, bindings });

describe("portBands", () => {
  it("merges overlapping ranges of all hosts into bands and keeps apart ones apart", () => {
    const rows = [row([binding(1, 60000, 60031), binding(1, 29500, 29500)]), row([binding(2, 60010, 60041), binding(2, 16666, 16666)])];
    expect(portBands(rows)).toEqual([
      { from: 16666, to: 16666 },
      { from: 29500, to: 29500 },
      { from: 60000, to: 60041 },
    ]);
  });

  it("merges the closest neighbours first when there are more bands than columns", () => {
    const rows = [row([binding(1, 100, 100), binding(1, 102, 102), binding(1, 200, 200), binding(1, 1000, 1000)])];
    expect(portBands(rows, 3)).toEqual([
      { from: 100, to: 102 },
      { from: 200, to: 200 },
      { from: 1000, to: 1000 },
    ]);
    expect(portBands(rows, 1)).toEqual([{ from: 100, to: 1000 }]);
  });
});

describe("mapCells", () => {
  it("lists each band's holders once per job, a conflict on any of its bindings marking the job", () => {
    const r = row([binding(1, 60000, 60031, true), binding(2, 60000, 60031, true), binding(1, 29500, 29500, false, "MASTER_PORT"), binding(2, 29500, 29500)]);
    const cells = mapCells(r, portBands([r]));
    expect(cells.map((c) => c.map((h) => [h.jobName, h.conflict]))).toEqual([
      [["job-1", false], ["job-2", false]],
      [["job-1", true], ["job-2", true]],
    ]);
    expect(cells[0]![0]!.uses).toEqual([{ source: "MASTER_PORT", ports: { from: 29500, to: 29500 }, plane: "host" }]);
  });
});
