import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCommonEvent, parseFaultEventInput } from "./fast-input";
import { faultEventInputSchema } from "./validation";

/** Every value a field is tried with below, by field path. */
const tried = new Map<string, unknown[]>();
/** Mostly valid values (so the fast path is reached), sometimes one the schema refuses or changes. */
const vary = <T>(valid: T[], other: unknown[], field?: string) => {
  if (field) tried.set(field, [...valid, ...other]);
  return fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...valid) }, { weight: 1, arbitrary: fc.constantFrom(...other) });
};
const nameValues: [string[], unknown[]] = [["atlas-a3-demo", "sp0-node01", "x".repeat(200)], [" sp0-node01", "sp0-node01 ", "", "x".repeat(201), 7, null]];
const dieValues: [number[], unknown[]] = [[0, 7, 63], [64, -1, 1.5, "3", null]];
const names = vary(...nameValues);
const dies = vary(...dieValues);
for (const field of ["id", "cluster", "target.server", "target.superPod", "target.peer.server"]) tried.set(field, nameValues.flat());
for (const field of ["target.die", "target.npu", "target.peer.die"]) tried.set(field, dieValues.flat());
const instants = vary(
  ["2026-11-20T08:00:00Z", "2026-11-20T08:00:00.123Z", "2026-11-20T16:00:00+08:00", "2026-11-20T08:00:00.123456789+00:00", "2024-02-29T00:00:00Z", 1_763_625_600_000, 0],
  ["2026-02-29T00:00:00Z", "2026-11-20 08:00:00Z", "2026-11-20T08:00Z", "2026-11-20T24:00:00Z", "2026-11-20T08:00:00", "yesterday", -1, 8_640_000_000_001, 1.5, null],
  "beganAt",
);
tried.set("endedAt", tried.get("beganAt")!);
const target = fc.record(
  { superPod: names, server: names, npu: dies, die: dies, peer: fc.record({ server: names, die: dies }, { requiredKeys: [] }) },
  { requiredKeys: [] },
);
const event = fc.tuple(
  fc.record(
    {
      id: names,
      cluster: names,
      action: vary(["begin", "end"], ["open", null], "action"),
      kind: vary(["roce-link-down", "roce-link-up", "hccl-error", "gateway-probe-failure"], ["made-up"], "kind"),
      source: vary(["api", "simulator", "device-info-cm"], ["elsewhere"], "source"),
      target: fc.oneof({ weight: 12, arbitrary: target }, { weight: 1, arbitrary: fc.constantFrom(null, "sp0-node01", { server: "sp0-node01", extra: 1 }) }),
      code: vary(["81078603", "EI0002", null], [" 81078603", "x".repeat(65), 81078603], "code"),
      level: vary(["NotHandleFault", "ManuallySeparateNPU"], ["Fatal"], "level"),
      beganAt: instants,
      endedAt: instants,
      phase: vary(["execution", "job"], ["teardown"], "phase"),
      job: vary(["train-7", " padded ", "x".repeat(200)], ["x".repeat(201), 3], "job"),
      rankTable: vary(["rt-1"], ["x".repeat(201)], "rankTable"),
      rank: vary([0, 1_000_000], [1_000_001, -1, 2.5, "1"], "rank"),
      message: vary(["link flapped", "x".repeat(2000)], ["x".repeat(2001)], "message"),
      raw: fc.constantFrom({ any: "thing" }, [1, 2], "text", null, 0, undefined),
    },
    { requiredKeys: ["cluster", "kind"] },
  ),
  fc.integer({ min: 0, max: 19 }),
).map(([item, dice]) => (dice === 0 ? { ...item, unknownKey: true } : item));

describe("the fast path for ingested events", () => {
  it("accepts only what the schema accepts, and gives what the schema gives", () => {
    let taken = 0;
    fc.assert(
      fc.property(event, (item) => {
        const fast = parseCommonEvent(item);
        const schema = faultEventInputSchema.safeParse(item);
        if (fast) {
          taken++;
          expect(schema.success).toBe(true);
          expect(fast).toEqual(schema.data);
        }
        const either = parseFaultEventInput(item);
        expect(either.success).toBe(schema.success);
        if (either.success) expect(either.data).toEqual(schema.data);
      }),
      { numRuns: 3000 },
    );
    // The generator must reach the fast path often enough for the comparison to mean something.
    expect(taken).toBeGreaterThan(50);
  });

  it("agrees with the schema on every tried value of every field, one at a time", () => {
    const base = { cluster: "atlas-a3-demo", kind: "roce-link-down", target: { server: "sp0-node00", die: 3, peer: { server: "sp0-node01", die: 3 } }, beganAt: 1_763_625_600_000 };
    const withValue = (path: string[], value: unknown, into: Record<string, unknown>): Record<string, unknown> =>
      path.length === 1 ? { ...into, [path[0]!]: value } : { ...into, [path[0]!]: withValue(path.slice(1), value, (into[path[0]!] ?? {}) as Record<string, unknown>) };
    for (const [field, values] of tried) {
      for (const value of values) {
        const item = withValue(field.split("."), value, base);
        const schema = faultEventInputSchema.safeParse(item);
        const fast = parseCommonEvent(item);
        expect(fast === null || schema.success, `${field} = ${JSON.stringify(value)}`).toBe(true);
        if (fast) expect(fast, `${field} = ${JSON.stringify(value)}`).toEqual(schema.data);
      }
    }
  });

  it("takes the usual shapes itself (otherwise it would save nothing)", () => {
    const common = [
      {
        cluster: "atlas-a3-demo",
        kind: "roce-link-down",
        source: "simulator",
        code: "81078603",
        target: { server: "sp0-node00", die: 3 },
        beganAt: "2026-11-20T08:00:00Z",
        endedAt: "2026-11-20T08:00:12.500Z",
      },
      { cluster: "atlas-a3-demo", kind: "hccl-error", code: "EI0002", phase: "execution", job: "train", rank: 12, target: { server: "sp1-node04", npu: 2 }, beganAt: 1_763_625_600_000 },
      { id: "collector-42", cluster: "atlas-a3-demo", kind: "roce-link-up", target: { server: "sp0-node00", die: 3, peer: { server: "sp0-node01", die: 3 } }, endedAt: "2026-11-20T16:00:12+08:00", raw: { from: "collector" } },
      { cluster: "atlas-a3-demo", action: "end", kind: "npu-chip-fault", target: { superPod: "0" }, endedAt: 1_763_625_600_000, level: "RestartNPU", message: "cleared" },
    ];
    for (const item of common) {
      const fast = parseCommonEvent(item);
      expect(fast, JSON.stringify(item)).not.toBeNull();
      expect(fast).toEqual(faultEventInputSchema.parse(item));
    }
  });

  it("leaves invalid items to the schema, whose message says what is wrong and where", () => {
    const result = parseFaultEventInput({ cluster: "atlas-a3-demo", kind: "roce-link-down", target: { server: "sp0-node00", die: 3 }, beganAt: "yesterday" });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues[0]!.path).toEqual(["beganAt"]);
  });
});
