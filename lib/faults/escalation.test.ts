import { describe, expect, it } from "vitest";
import { defaultEscalationSettings, evaluateSeries, mergeEpisodes, type EscalationInput, type EscalationSettings } from "./escalation";

const t0 = Date.UTC(2026, 10, 20, 8, 0, 0);
const s = (seconds: number) => t0 + seconds * 1000;
let n = 0;
function linkDown(begin: number, end: number | null, extra: Partial<EscalationInput> = {}): EscalationInput {
  return { id: `e${++n}`, kind: "roce-link-down", code: "81078603", reportedLevel: "NotHandleFault", beganAt: begin, endedAt: end, ...extra };
}
const evaluate = (series: EscalationInput[], now = s(100_000), settings: EscalationSettings = defaultEscalationSettings) => evaluateSeries(series, settings, now);

describe("fault duration rule (RoCE timeout 20 s)", () => {
  it("keeps a link down of exactly 20 s an NPU network fault (NotHandleFault)", () => {
    const e = linkDown(s(0), s(20));
    expect(evaluate([e]).get(e.id)).toMatchObject({ level: "NotHandleFault", rule: "within-fault-timeout", ruleAt: s(20) });
  });

  it("escalates a link down of 20.001 s to PreSeparateNPU", () => {
    const e = linkDown(s(0), s(20) + 1);
    expect(evaluate([e]).get(e.id)).toMatchObject({ level: "PreSeparateNPU", rule: "fault-duration" });
  });

  it("judges an open fault as time passes", () => {
    const e = linkDown(s(0), null);
    expect(evaluate([e], s(10)).get(e.id)).toMatchObject({ level: "NotHandleFault", rule: "within-fault-timeout" });
    expect(evaluate([e], s(20)).get(e.id)?.level).toBe("NotHandleFault");
    expect(evaluate([e], s(21)).get(e.id)).toMatchObject({ level: "PreSeparateNPU", rule: "fault-duration" });
  });

  it("treats a gateway probe failure without a code like a link down", () => {
    const e: EscalationInput = { id: "g", kind: "gateway-probe-failure", code: null, reportedLevel: "NotHandleFault", beganAt: s(0), endedAt: s(45) };
    expect(evaluate([e]).get("g")).toMatchObject({ level: "PreSeparateNPU", rule: "fault-duration" });
  });

  it("uses the cluster's own settings", () => {
    const settings: EscalationSettings = {
      duration: [{ ...defaultEscalationSettings.duration[0]!, faultTimeoutSeconds: 5, handling: "SeparateNPU" }],
      frequency: [],
    };
    const e = linkDown(s(0), s(6));
    expect(evaluate([e], s(100), settings).get(e.id)).toMatchObject({ level: "SeparateNPU", rule: "fault-duration" });
  });

  it("leaves codes without a rule at their reported level", () => {
    const e: EscalationInput = { id: "c", kind: "npu-chip-fault", code: "80E18402", reportedLevel: "SeparateNPU", beganAt: s(0), endedAt: s(5) };
    expect(evaluate([e]).get("c")).toMatchObject({ level: "SeparateNPU", rule: "reported", episodeId: "c" });
  });

  it("never lowers a reported level", () => {
    const e = linkDown(s(0), s(5), { reportedLevel: "SeparateNPU" });
    expect(evaluate([e]).get(e.id)?.level).toBe("SeparateNPU");
  });
});

describe("recover timeout (60 s): flapping is one fault", () => {
  it("merges flaps less than 60 s apart into one long fault that escalates", () => {
    // Five 10 s drops with 30 s of link up between them: each alone is short, together they last 170 s.
    const series = [0, 40, 80, 120, 160].map((start) => linkDown(s(start), s(start + 10)));
    const result = evaluate(series);
    const episodes = new Set(series.map((e) => result.get(e.id)!.episodeId));
    expect(episodes).toEqual(new Set([series[0]!.id]));
    for (const e of series) expect(result.get(e.id)).toMatchObject({ level: "PreSeparateNPU", rule: "fault-duration" });
  });

  it("starts a new fault after staying clear for exactly the recover timeout", () => {
    const a = linkDown(s(0), s(10));
    const b = linkDown(s(70), s(80));
    expect(mergeEpisodes([a, b], 60_000)).toHaveLength(2);
    expect(mergeEpisodes([a, linkDown(s(69), s(75))], 60_000)).toHaveLength(1);
  });

  it("continues an open fault when another begin arrives", () => {
    const a = linkDown(s(0), null);
    const b = linkDown(s(5), s(8));
    const episodes = mergeEpisodes([b, a], 60_000);
    expect(episodes).toHaveLength(1);
    expect(episodes[0]!.endedAt).toBeNull();
  });
});

describe("fault frequency rule (5 times in 24 h → ManuallySeparateNPU)", () => {
  const hour = 3600;
  it("escalates the fifth fault of the same code on the same die within 24 h", () => {
    const series = [0, 1, 2, 3, 4].map((h) => linkDown(s(h * hour), s(h * hour + 5)));
    const result = evaluate(series);
    expect(series.slice(0, 4).map((e) => result.get(e.id)!.level)).toEqual(Array(4).fill("NotHandleFault"));
    expect(result.get(series[4]!.id)).toMatchObject({ level: "ManuallySeparateNPU", rule: "fault-frequency", releaseAt: s(4 * hour) + 172_800_000 });
  });

  it("does not count faults older than the window", () => {
    const series = [0, 6, 12, 18, 24].map((h) => linkDown(s(h * hour), s(h * hour + 5)));
    expect(evaluate(series).get(series[4]!.id)?.level).toBe("NotHandleFault");
  });

  it("counts merged flaps once", () => {
    const series = Array.from({ length: 10 }, (_, i) => linkDown(s(i * 20), s(i * 20 + 2)));
    // Ten 2 s drops 20 s apart are one 182 s fault: escalated for its duration, not for its frequency.
    expect(new Set([...evaluate(series).values()].map((r) => r.rule))).toEqual(new Set(["fault-duration"]));
  });
});
